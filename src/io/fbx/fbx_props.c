/* Property lookup: the P lines of a Properties70 record (7.x: name, type,
 * label, flags, values...) and the Property lines of a Properties60
 * record (6.x: name, type, flags, values...), on an object first and then
 * on its class's Definitions template. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "io/fbx/fbx_objects.h"

const anim_fbx_node *anim_fbx_find_prop_in(const anim_fbx_node *props, const char *name,
                                           uint32_t *value_index)
{
    if (!props)
        return NULL;
    for (uint32_t i = 0; i < props->child_count; i++) {
        const anim_fbx_node *r = &props->children[i];
        uint32_t vi;
        if (strcmp(r->name, "P") == 0)
            vi = 4;
        else if (strcmp(r->name, "Property") == 0)
            vi = 3;
        else
            continue;
        if (r->prop_count > 0 && r->props[0].type == ANIM_FBX_STRING &&
            strcmp(r->props[0].bytes, name) == 0) {
            if (value_index)
                *value_index = vi;
            return r;
        }
    }
    return NULL;
}

const anim_fbx_node *anim_fbx_find_prop(const anim_fbx_objects *objs, const anim_fbx_object *o,
                                        const char *name, uint32_t *value_index)
{
    (void)objs;
    const anim_fbx_node *r = anim_fbx_find_prop_in(o->props, name, value_index);
    return r ? r : anim_fbx_find_prop_in(o->templ, name, value_index);
}

/* Who owns the value, for messages: "Model 'Hips' (id 123) property
 * 'Lcl Rotation': expected 3 numbers", or for a bare record "record
 * 'Properties70' at byte 88 property 'UpAxis': expected an integer". */
typedef struct {
    const anim_fbx_object *o;   /* the object, or NULL for a bare record */
    const anim_fbx_node *props; /* the bare record */
} owner;

static int value_error(const owner *w, const char *name, const char *expected, anim_error *err)
{
    char label[200];
    if (w->o)
        anim_fbx_object_label(w->o, label, sizeof label);
    else
        anim_fbx_node_where(NULL, w->props, label, sizeof label);
    return anim_error_set(err, ANIM_ERR_INVALID, "%s property '%s': expected %s", label, name,
                          expected);
}

/* n numbers from record r starting at vi into out. */
static int read_numbers(const owner *w, const anim_fbx_node *r, uint32_t vi, const char *name,
                        uint32_t n, double *out, anim_error *err)
{
    anim_error scratch;
    for (uint32_t k = 0; k < n; k++)
        if (anim_fbx_prop_f64(r, vi + k, &out[k], &scratch) != 0)
            return value_error(w, name,
                               n == 1   ? "a number"
                               : n == 3 ? "3 numbers"
                                        : "numbers",
                               err);
    return 0;
}

static int get_f64(const owner *w, const anim_fbx_node *r, uint32_t vi, const char *name,
                   double dflt, double *out, anim_error *err)
{
    if (!r) {
        *out = dflt;
        return 0;
    }
    return read_numbers(w, r, vi, name, 1, out, err);
}

static int get_i64(const owner *w, const anim_fbx_node *r, uint32_t vi, const char *name,
                   int64_t dflt, int64_t *out, anim_error *err)
{
    if (!r) {
        *out = dflt;
        return 0;
    }
    anim_error scratch;
    if (anim_fbx_prop_i64(r, vi, out, &scratch) != 0)
        return value_error(w, name, "an integer", err);
    return 0;
}

int anim_fbx_get_f64(const anim_fbx_objects *objs, const anim_fbx_object *o, const char *name,
                     double dflt, double *out, anim_error *err)
{
    uint32_t vi = 0;
    const anim_fbx_node *r = anim_fbx_find_prop(objs, o, name, &vi);
    owner w = {o, NULL};
    return get_f64(&w, r, vi, name, dflt, out, err);
}

int anim_fbx_get_i64(const anim_fbx_objects *objs, const anim_fbx_object *o, const char *name,
                     int64_t dflt, int64_t *out, anim_error *err)
{
    uint32_t vi = 0;
    const anim_fbx_node *r = anim_fbx_find_prop(objs, o, name, &vi);
    owner w = {o, NULL};
    return get_i64(&w, r, vi, name, dflt, out, err);
}

int anim_fbx_get_vec3(const anim_fbx_objects *objs, const anim_fbx_object *o, const char *name,
                      const double dflt[3], double out[3], anim_error *err)
{
    uint32_t vi = 0;
    const anim_fbx_node *r = anim_fbx_find_prop(objs, o, name, &vi);
    if (!r) {
        memcpy(out, dflt, 3 * sizeof *out);
        return 0;
    }
    owner w = {o, NULL};
    double v[3];
    if (read_numbers(&w, r, vi, name, 3, v, err) != 0)
        return -1;
    memcpy(out, v, sizeof v);
    return 0;
}

int anim_fbx_get_str(const anim_fbx_objects *objs, const anim_fbx_object *o, const char *name,
                     const char *dflt, const char **out, anim_error *err)
{
    uint32_t vi = 0;
    const anim_fbx_node *r = anim_fbx_find_prop(objs, o, name, &vi);
    if (!r) {
        *out = dflt;
        return 0;
    }
    anim_error scratch;
    owner w = {o, NULL};
    if (anim_fbx_prop_string(r, vi, out, NULL, &scratch) != 0)
        return value_error(&w, name, "a string", err);
    return 0;
}

int anim_fbx_props_f64(const anim_fbx_node *props, const char *name, double dflt, double *out,
                       anim_error *err)
{
    uint32_t vi = 0;
    const anim_fbx_node *r = anim_fbx_find_prop_in(props, name, &vi);
    owner w = {NULL, props};
    return get_f64(&w, r, vi, name, dflt, out, err);
}

int anim_fbx_props_i64(const anim_fbx_node *props, const char *name, int64_t dflt, int64_t *out,
                       anim_error *err)
{
    uint32_t vi = 0;
    const anim_fbx_node *r = anim_fbx_find_prop_in(props, name, &vi);
    owner w = {NULL, props};
    return get_i64(&w, r, vi, name, dflt, out, err);
}
