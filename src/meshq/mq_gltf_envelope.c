/* --envelope ENVELOPE.toml: a declared envelope for a glTF mesh.
 *
 *   reference = "mixamorig:Hips"
 *   [[bone]]
 *   bone = "mixamorig:LeftArm"
 *   linear = 0.5              # dimensionless
 *   pivot = [0.18, 1.43, 0.0] # metres, bind space
 *   translation = 0.0         # metres
 *
 * Nothing has a default and no other key is accepted: an envelope is a
 * claim about motion, and a misspelt key silently read as 0 would be a
 * false one. Errors name the file, the table index and the key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/toml.h"
#include "meshq/mq_gltf_internal.h"

static int read_text(const char *path, anim_arena *arena, char **text, size_t *len,
                     anim_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return anim_error_set(err, ANIM_ERR_IO, "%s: cannot open the envelope", path);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int rc = 0;
    while (buf) {
        if (n == cap) {
            if (cap > ANIM_TOML_MAX_BYTES) {
                rc = anim_error_set(err, ANIM_ERR_LIMIT,
                                    "%s: the envelope is over %zu bytes; an envelope is a few "
                                    "kilobytes",
                                    path, (size_t)ANIM_TOML_MAX_BYTES);
                break;
            }
            char *grown = realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f))
                rc = anim_error_set(err, ANIM_ERR_IO, "%s: cannot read the envelope", path);
            break;
        }
    }
    fclose(f);
    if (!buf)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (!rc) {
        *text = anim_arena_strndup(arena, buf, n);
        *len = n;
        if (!*text)
            rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    free(buf);
    return rc;
}

static bool number_of(const anim_toml_value *v, double *out)
{
    if (v && v->type == ANIM_TOML_INTEGER) {
        *out = (double)v->u.integer;
        return true;
    }
    if (v && v->type == ANIM_TOML_FLOAT && isfinite(v->u.floating)) {
        *out = v->u.floating;
        return true;
    }
    return false;
}

/* A required non-negative finite number under key of table i. */
static int nonneg(const char *path, uint32_t i, const anim_toml_value *t, const char *key,
                  const char *unit, double *out, anim_error *err)
{
    const anim_toml_value *v = anim_toml_get(t, key);
    if (!v)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: [[bone]] %u (line %u): key '%s' is missing; required a finite "
                              "number%s, 0 or more — no field has a default",
                              path, i, t->line, key, unit);
    if (!number_of(v, out) || *out < 0)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: [[bone]] %u line %u: key '%s' is a %s; required a finite "
                              "number%s, 0 or more",
                              path, i, v->line, key,
                              number_of(v, out) ? "negative number" : anim_toml_type_name(v->type),
                              unit);
    return 0;
}

int mq_gltf_envelope_read(const char *path, anim_arena *arena, mq_named_envelope *out,
                          anim_error *err)
{
    memset(out, 0, sizeof *out);
    char *text = NULL;
    size_t len = 0;
    if (read_text(path, arena, &text, &len, err))
        return -1;
    anim_toml_value *root = anim_toml_parse(arena, text, len, err);
    if (!root) {
        anim_error_prefix(err, "%s", path);
        return -1;
    }
    for (size_t i = 0; i < root->u.table.count; i++) {
        const anim_toml_entry *e = &root->u.table.entries[i];
        if (strcmp(e->key, "reference") != 0 && strcmp(e->key, "bone") != 0)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: line %u: key '%s' is not an envelope key; required "
                                  "'reference' and [[bone]] tables only",
                                  path, e->line, e->key);
    }
    const anim_toml_value *ref = anim_toml_get(root, "reference");
    if (!ref || ref->type != ANIM_TOML_STRING || ref->u.string.len == 0)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: key 'reference' is %s; required a non-empty bone name (the "
                              "bone every other bone's motion is measured against)",
                              path, ref ? anim_toml_type_name(ref->type) : "missing");
    out->reference = ref->u.string.data;
    const anim_toml_value *bones = anim_toml_get(root, "bone");
    if (bones && bones->type != ANIM_TOML_ARRAY)
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "%s: line %u: key 'bone' is a %s; required [[bone]] tables", path,
                              bones->line, anim_toml_type_name(bones->type));
    size_t n = bones ? bones->u.array.count : 0;
    if (n > UINT32_MAX / 2)
        return anim_error_set(err, ANIM_ERR_LIMIT, "%s: %zu [[bone]] tables", path, n);
    out->bones = anim_arena_calloc(arena, n ? n : 1, sizeof *out->bones);
    if (!out->bones)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        const anim_toml_value *t = bones->u.array.items[i];
        if (t->type != ANIM_TOML_TABLE)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: bone %u (line %u) is a %s; required a [[bone]] table",
                                  path, i, t->line, anim_toml_type_name(t->type));
        for (size_t k = 0; k < t->u.table.count; k++) {
            const char *key = t->u.table.entries[k].key;
            if (strcmp(key, "bone") && strcmp(key, "linear") && strcmp(key, "pivot") &&
                strcmp(key, "translation"))
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "%s: [[bone]] %u line %u: key '%s' is not a bone key; "
                                      "required bone, linear, pivot and translation only",
                                      path, i, t->u.table.entries[k].line, key);
        }
        mq_named_bone *b = &out->bones[i];
        const anim_toml_value *name = anim_toml_get(t, "bone");
        if (!name || name->type != ANIM_TOML_STRING || name->u.string.len == 0)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: [[bone]] %u (line %u): key 'bone' is %s; required a "
                                  "non-empty bone name",
                                  path, i, t->line,
                                  name ? anim_toml_type_name(name->type) : "missing");
        b->bone = name->u.string.data;
        if (strcmp(b->bone, out->reference) == 0)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: [[bone]] %u line %u: key 'bone' is \"%s\", the "
                                  "reference; required every bone but the reference — its own "
                                  "terms are 0 by definition",
                                  path, i, name->line, b->bone);
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(out->bones[j].bone, b->bone) == 0)
                return anim_error_set(err, ANIM_ERR_INVALID,
                                      "%s: [[bone]] %u line %u: key 'bone' \"%s\" is declared "
                                      "twice (also [[bone]] %u); required one table per bone",
                                      path, i, name->line, b->bone, j);
        if (nonneg(path, i, t, "linear", " (dimensionless)", &b->linear, err) ||
            nonneg(path, i, t, "translation", " of metres", &b->translation, err))
            return -1;
        const anim_toml_value *pivot = anim_toml_get(t, "pivot");
        bool ok = pivot && pivot->type == ANIM_TOML_ARRAY && pivot->u.array.count == 3;
        for (uint32_t k = 0; ok && k < 3; k++)
            ok = number_of(pivot->u.array.items[k], &b->pivot[k]);
        if (!ok)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "%s: [[bone]] %u (line %u): key 'pivot' is %s; required [x, y, "
                                  "z], three finite numbers of metres in bind space",
                                  path, i, pivot ? pivot->line : t->line,
                                  pivot ? "not three finite numbers" : "missing");
        out->bone_count++;
    }
    return 0;
}
