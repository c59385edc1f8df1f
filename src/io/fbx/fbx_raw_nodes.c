/* The raw transform-path inventory of an FBX file: every Model object with
 * its stored name and parent chain, as an engine importer addresses it
 * ("Reference/Root"), kept apart from the projected glTF nodes so that
 * later edits of the node table (convert's static bake) and the UTF-8
 * repair of projected names never change what a configured path matches.
 *
 * The rows follow the reader's node numbering (fbx_scene_nodes.c): row 0
 * is the implicit scene root, which is evidence but never matches; the
 * reader generates no other helper node, so every other row is matchable.
 * A Model whose stored name holds a NUL byte inside its display part can
 * not be carried byte-exact as a C string: the inventory is then partial,
 * and a partial inventory proves neither a match's uniqueness nor an
 * absence. */
#include <string.h>

#include "io/fbx/fbx_scene.h"

/* Whether o->name is the whole display part of its stored name: the name
 * record's bytes run from o->name to the class separator "\0\1" (binary)
 * or to the end of the string (ASCII "Model::Hips", or a name without a
 * class part). A hand-built object whose name is not inside its record is
 * taken as it is. */
static bool name_is_exact(const anim_fbx_object *o)
{
    const anim_fbx_node *r = o->node;
    if (!r || !o->name)
        return true;
    /* Addresses compared as integers: the name may point into any record. */
    uintptr_t name = (uintptr_t)o->name;
    for (uint32_t i = 0; i < r->prop_count; i++) {
        const anim_fbx_prop *p = &r->props[i];
        uintptr_t base = (uintptr_t)p->bytes;
        if (p->type != ANIM_FBX_STRING || !p->bytes || name < base || name - base > p->len)
            continue;
        size_t at = (size_t)(name - base), end = p->len;
        for (size_t k = at; k + 1 < p->len; k++)
            if (p->bytes[k] == '\0' && p->bytes[k + 1] == '\1') {
                end = k;
                break;
            }
        return strlen(o->name) == end - at;
    }
    return true;
}

int anim_fbx_build_raw_nodes(anim_fbx_scene *scene, anim_error *err)
{
    uint32_t n = scene->node_count;
    scene->raw_node_count = 0;
    scene->raw_coverage = ANIM_FBX_COVERAGE_COMPLETE;
    scene->raw_coverage_reason = NULL;
    if (n == 0)
        return 0;
    /* One row per node the stage already holds: no new size from the file. */
    anim_fbx_raw_node *rows = anim_arena_calloc(scene->arena, n, sizeof *rows);
    uint32_t *objects = anim_arena_calloc(scene->arena, n, sizeof *objects);
    if (!rows || !objects)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory listing %u raw nodes", n);
    for (uint32_t i = 0; i < n; i++) {
        const anim_fbx_node_rec *nr = &scene->nodes[i];
        anim_fbx_raw_node *row = &rows[i];
        objects[i] = nr->object;
        row->gltf_node = i;
        if (i == 0 || nr->object == ANIM_FBX_SCENE_ROOT) {
            row->name = "";
            row->parent = ANIM_NONE;
            row->subclass = "";
            continue;
        }
        row->name = nr->name ? nr->name : "";
        row->parent = nr->parent;
        row->id = nr->id;
        row->subclass = nr->subclass ? nr->subclass : "";
        row->matchable = true;
        if (scene->objs && nr->object < scene->objs->object_count &&
            !name_is_exact(&scene->objs->objects[nr->object])) {
            scene->raw_coverage = ANIM_FBX_COVERAGE_PARTIAL;
            scene->raw_coverage_reason = "raw_name_not_representable";
        }
    }
    scene->raw_nodes = rows;
    scene->raw_objects = objects;
    scene->raw_node_count = n;
    return 0;
}
