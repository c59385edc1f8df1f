/* libFuzzer entry for the FBX reader: any byte string must be parsed (as
 * binary or ASCII FBX, chosen by the magic) or refused with a one-line
 * message, without reading past the input (the fuzzer's buffer is exactly
 * size bytes, so ASan sees any overread). A small array budget keeps runs
 * fast and exercises the limit paths.
 *
 * A parsed tree is walked whole through the typed reads; then the object
 * table is built over it, every object must be found again by its id, its
 * connections must point back at it, and the property reads every later
 * stage uses must answer or refuse without touching bad memory.
 *
 * Inputs that start with neither magic are also tried as ASCII behind a
 * "; FBX 7.4.0" header line, so the fuzzer reaches the text tokenizer
 * without having to find the header first. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/arena.h"
#include "animsmith/error.h"
#include "io/fbx/fbx_objects.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_error(const anim_error *err)
{
    if (err->code != ANIM_ERR_PARSE && err->code != ANIM_ERR_LIMIT && err->code != ANIM_ERR_NOMEM &&
        err->code != ANIM_ERR_UNSUPPORTED && err->code != ANIM_ERR_INVALID)
        __builtin_trap();
    if (err->message[0] == '\0' || strchr(err->message, '\n'))
        __builtin_trap(); /* one line, never empty */
}

/* Every property of every node through the typed reads; returns the node
 * count (bounded: the tree cannot hold more nodes than the input bytes). */
static size_t walk(anim_arena *arena, const anim_fbx_node *n, unsigned depth)
{
    if (depth > ANIM_FBX_MAX_DEPTH + 1)
        __builtin_trap();
    size_t count = 1;
    anim_error err;
    for (uint32_t i = 0; i < n->prop_count; i++) {
        const anim_fbx_prop *p = &n->props[i];
        int64_t iv;
        double dv;
        const char *s;
        size_t len;
        if (anim_fbx_prop_i64(n, i, &iv, &err) != 0)
            check_error(&err);
        if (anim_fbx_prop_f64(n, i, &dv, &err) != 0)
            check_error(&err);
        if (anim_fbx_prop_string(n, i, &s, &len, &err) == 0) {
            if (s[len] != '\0')
                __builtin_trap(); /* strings carry a NUL after len */
        } else {
            check_error(&err);
        }
        if (p->type >= 'a' && p->type <= 'z' && p->count > 0) {
            const double *d;
            uint32_t c;
            if (anim_fbx_prop_array_f64(arena, n, i, &d, &c, &err) == 0) {
                if (c != p->count)
                    __builtin_trap();
                volatile double last = d[c - 1]; /* ASan checks it */
                (void)last;
            }
        }
    }
    for (uint32_t i = 0; i < n->child_count; i++)
        count += walk(arena, &n->children[i], depth + 1);
    return count;
}

static void check_objects(const anim_fbx_objects *objs)
{
    anim_error err;
    static const double zero[3] = {0, 0, 0};
    for (uint32_t k = 0; k < objs->object_count; k++) {
        const anim_fbx_object *o = &objs->objects[k];
        uint32_t found = anim_fbx_object_by_id(objs, o->id);
        if (found == ANIM_FBX_SCENE_ROOT || objs->objects[found].id != o->id)
            __builtin_trap();
        for (uint32_t i = 0; i < o->src_conn_count; i++)
            if (objs->conns[o->src_conns[i]].src != k)
                __builtin_trap();
        for (uint32_t i = 0; i < o->dst_conn_count; i++)
            if (objs->conns[o->dst_conns[i]].dst != k)
                __builtin_trap();
        double v[3], d;
        int64_t iv;
        const char *s;
        if (anim_fbx_get_vec3(objs, o, "Lcl Translation", zero, v, &err) != 0)
            check_error(&err);
        if (anim_fbx_get_f64(objs, o, "DeformPercent", 0, &d, &err) != 0)
            check_error(&err);
        if (anim_fbx_get_i64(objs, o, "RotationOrder", 0, &iv, &err) != 0)
            check_error(&err);
        if (anim_fbx_get_str(objs, o, "RelativeFilename", "", &s, &err) != 0)
            check_error(&err);
        uint32_t c = anim_fbx_child_object(objs, o, NULL, 0, NULL);
        if (c != ANIM_FBX_SCENE_ROOT && c >= objs->object_count)
            __builtin_trap();
        c = anim_fbx_parent_object(objs, o, "Model", 0, NULL);
        if (c != ANIM_FBX_SCENE_ROOT && c >= objs->object_count)
            __builtin_trap();
        char label[256];
        (void)anim_fbx_object_label(o, label, sizeof label);
    }
    for (uint32_t i = 0; i < objs->conn_count; i++) {
        const anim_fbx_conn *cn = &objs->conns[i];
        if (cn->src >= objs->object_count ||
            (cn->dst != ANIM_FBX_SCENE_ROOT && cn->dst >= objs->object_count))
            __builtin_trap();
    }
    int64_t up;
    if (anim_fbx_props_i64(objs->global_settings, "UpAxis", 1, &up, &err) != 0)
        check_error(&err);
}

static void run(const uint8_t *data, size_t size)
{
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return;
    anim_fbx_parse_limits limits = {1u << 20};
    anim_fbx_tree tree;
    anim_error err;
    anim_error_clear(&err);
    if (anim_fbx_parse(data, size, arena, &limits, &tree, &err) != 0) {
        check_error(&err);
    } else {
        if (walk(arena, &tree.root, 0) > size + 1)
            __builtin_trap();
        anim_fbx_objects objs;
        uint32_t dangling;
        if (anim_fbx_objects_build(&tree, arena, &objs, &dangling, &err) != 0)
            check_error(&err);
        else
            check_objects(&objs);
    }
    anim_arena_free(arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    if (!anim_fbx_sniff(data, size)) {
        static const char hdr[] = "; FBX 7.4.0 project file\n";
        uint8_t *text = malloc(sizeof hdr - 1 + size);
        if (!text)
            return 0;
        memcpy(text, hdr, sizeof hdr - 1);
        if (size)
            memcpy(text + sizeof hdr - 1, data, size);
        run(text, sizeof hdr - 1 + size);
        free(text);
    }
    return 0;
}
