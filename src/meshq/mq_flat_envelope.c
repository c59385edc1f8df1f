/* `mesh-quality envelope RANGES.json`: declared bone-motion ranges in, one
 * envelope entry out (or one per request of a list). The helper's
 * assumptions are checked where the input can show them and refused by
 * name (SKINNING_RANGE_UNSUPPORTED): a range the bone's own keys do not
 * declare, a non-uniform setup scale, a setup shear, an inherit mode that
 * composes the chain otherwise. Malformed input is REDUCE_INPUT_MISSING. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "animsmith/json_write.h"
#include "animsmith/math.h"
#include "meshq/mq_flat_input.h"

static const anim_json_value *get(const anim_json_value *obj, const char *key)
{
    return obj && obj->type == ANIM_JSON_OBJECT ? anim_json_get(obj, key) : NULL;
}

static int range_of(mq_flat_reader *rd, const char *at, const anim_json_value *v, bool positive,
                    double out[2])
{
    if (!mq_flat_is_point(v, 2) || anim_json_number(anim_json_item(v, 0)) >
                                       anim_json_number(anim_json_item(v, 1)) ||
        (positive && !(anim_json_number(anim_json_item(v, 0)) > 0)))
        return mq_flat_refuse(rd, "%s is %s; required [min, max], finite, min <= max%s", at,
                              mq_flat_shown(rd, v), positive ? ", min above 0" : "");
    out[0] = anim_json_number(anim_json_item(v, 0));
    out[1] = anim_json_number(anim_json_item(v, 1));
    return 0;
}

static int step_of(mq_flat_reader *rd, const char *prefix, const char *list, size_t i,
                   const anim_json_value *r, anim_mq_bone_range *out)
{
    const char *bone = mq_flat_name(rd, get(r, "bone"));
    if (!r || r->type != ANIM_JSON_OBJECT || !bone)
        return mq_flat_refuse(rd, "%s%s[%zu] is %s; required a bone motion range { bone, source, "
                                  "pivot, rotate, scaleX, scaleY, translate, setup }", prefix, list,
                              i, mq_flat_shown(rd, r));
    char name[512];
    snprintf(name, sizeof name, "%s%s[%zu] (bone \"%.200s\")", prefix, list, i, bone);
    const anim_json_value *source = get(r, "source");
    if (!anim_json_string_eq(source, "keys"))
        return mq_flat_refuse_range(rd, "%s.source is %s; required \"keys\" \xe2\x80\x94 a range "
                                        "not declared by the bone's own keys (a physics swing, a "
                                        "range read off a posed schedule) is not certified by this "
                                        "helper, so it is refused rather than turned into a bound",
                                    name, mq_flat_shown(rd, source));
    const anim_json_value *pivot = get(r, "pivot");
    if (!mq_flat_is_point(pivot, 2))
        return mq_flat_refuse(rd, "%s.pivot is %s; required the setup joint as a pair of finite "
                                  "drawing px", name, mq_flat_shown(rd, pivot));
    double rotate[2], sx[2], sy[2];
    char at[600];
    snprintf(at, sizeof at, "%s.rotate", name);
    if (range_of(rd, at, get(r, "rotate"), false, rotate))
        return -1;
    snprintf(at, sizeof at, "%s.scaleX", name);
    if (range_of(rd, at, get(r, "scaleX"), true, sx))
        return -1;
    snprintf(at, sizeof at, "%s.scaleY", name);
    if (range_of(rd, at, get(r, "scaleY"), true, sy))
        return -1;
    const anim_json_value *tr = get(r, "translate");
    if (!mq_flat_is_number(tr) || anim_json_number(tr) < 0)
        return mq_flat_refuse(rd, "%s.translate is %s; required a finite number of drawing px, 0 "
                                  "or more", name, mq_flat_shown(rd, tr));
    const anim_json_value *setup = get(r, "setup");
    const anim_json_value *ssx = get(setup, "scaleX"), *ssy = get(setup, "scaleY");
    const anim_json_value *shx = get(setup, "shearX"), *shy = get(setup, "shearY");
    const anim_json_value *inherit = get(setup, "inherit");
    if (!setup || setup->type != ANIM_JSON_OBJECT || !mq_flat_is_number(ssx) ||
        !mq_flat_is_number(ssy) || !mq_flat_is_number(shx) || !mq_flat_is_number(shy) ||
        !inherit || inherit->type != ANIM_JSON_STRING)
        return mq_flat_refuse(rd, "%s.setup is %s; required { scaleX, scaleY, shearX, shearY, "
                                  "inherit } as the rig declares them", name,
                              mq_flat_shown(rd, setup));
    double a = anim_json_number(ssx), b = anim_json_number(ssy);
    if (fabs(a) != fabs(b) || a == 0)
        return mq_flat_refuse_range(rd, "%s.setup scale is (%s, %s); required a uniform setup "
                                        "scale \xe2\x80\x94 under a nonuniform one the bone's "
                                        "deformation is not a rotation and scale of the drawing, "
                                        "and the bound is not proven", name, mq_flat_shown(rd, ssx),
                                    mq_flat_shown(rd, ssy));
    if (anim_json_number(shx) != 0 || anim_json_number(shy) != 0)
        return mq_flat_refuse_range(rd, "%s.setup shear is (%s, %s); required (0, 0) \xe2\x80\x94 "
                                        "a sheared setup is outside the helper's assumptions", name,
                                    mq_flat_shown(rd, shx), mq_flat_shown(rd, shy));
    if (!anim_json_string_eq(inherit, "normal"))
        return mq_flat_refuse_range(rd, "%s.setup.inherit is %s; required \"normal\" \xe2\x80\x94 "
                                        "another inherit mode composes the chain otherwise than "
                                        "the helper does", name, mq_flat_shown(rd, inherit));
    double theta = fmin(fmax(fabs(rotate[0]), fabs(rotate[1])), 180);
    *out = (anim_mq_bone_range){.bone = bone,
                                .pivot = {anim_json_number(anim_json_item(pivot, 0)),
                                          anim_json_number(anim_json_item(pivot, 1)), 0},
                                .rotate_max = theta * ANIM_PI / 180,
                                .scale_min = {sx[0], sy[0], 1},
                                .scale_max = {sx[1], sy[1], 1},
                                .translate = anim_json_number(tr)};
    return 0;
}

static int read_chain(mq_flat_reader *rd, const char *prefix, const char *list,
                      const anim_json_value *v, anim_mq_bone_range **out, uint32_t *count)
{
    size_t n = anim_json_count(v);
    if (n > UINT32_MAX / 2)
        return mq_flat_refuse(rd, "%s%s holds %zu bones; required fewer", prefix, list, n);
    *out = anim_arena_calloc(rd->arena, n ? n : 1, sizeof **out);
    if (!*out)
        return anim_error_set(rd->err, ANIM_ERR_NOMEM, "%s: out of memory", rd->path);
    for (size_t i = 0; i < n; i++)
        if (step_of(rd, prefix, list, i, anim_json_item(v, i), &(*out)[i]))
            return -1;
    *count = (uint32_t)n;
    return 0;
}

static int one_entry(mq_flat_reader *rd, const char *prefix, const anim_json_value *req,
                     anim_mq_envelope_plant plant, anim_json_writer *w, anim_strbuf *text)
{
    const anim_json_value *ref = get(req, "referenceChain"), *chain = get(req, "chain");
    if (!req || req->type != ANIM_JSON_OBJECT || !ref || ref->type != ANIM_JSON_ARRAY || !chain ||
        chain->type != ANIM_JSON_ARRAY)
        return mq_flat_refuse(rd, "%sthe input is %s; required { referenceChain: [bone motion "
                                  "ranges], chain: [bone motion ranges] }", prefix,
                              mq_flat_shown(rd, req));
    if (anim_json_count(ref) == 0)
        return mq_flat_refuse(rd, "%sreferenceChain is empty; required the bones from the "
                                  "skeleton's root to the reference, at least the reference",
                              prefix);
    if (anim_json_count(chain) == 0)
        return mq_flat_refuse(rd, "%schain is empty; required the bones below the reference down "
                                  "to the bone the entry is for, at least that bone", prefix);
    anim_mq_bone_range *above, *below;
    uint32_t na, nb;
    if (read_chain(rd, prefix, "referenceChain", ref, &above, &na) ||
        read_chain(rd, prefix, "chain", chain, &below, &nb))
        return -1;
    double linear, pivot[3], translation;
    anim_mq_envelope_bone_of(above, na, below, nb, 2, plant, &linear, pivot, &translation);
    const char *bone = below[nb - 1].bone;
    if (w) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "bone");
        anim_json_writer_string(w, bone);
        anim_json_writer_key(w, "linear");
        anim_json_writer_f64(w, linear);
        anim_json_writer_key(w, "pivot");
        anim_json_writer_f64_array(w, pivot, 2);
        anim_json_writer_key(w, "translation");
        anim_json_writer_f64(w, translation);
        anim_json_writer_end_object(w);
    } else {
        anim_strbuf_printf(text, "bone \"%s\": linear ", bone);
        mq_put_js_number(text, linear);
        anim_strbuf_puts(text, ", pivot (");
        mq_put_js_number(text, pivot[0]);
        anim_strbuf_puts(text, ", ");
        mq_put_js_number(text, pivot[1]);
        anim_strbuf_puts(text, "), translation ");
        mq_put_js_number(text, translation);
        anim_strbuf_putc(text, '\n');
    }
    return 0;
}

int anim_mq_flat_envelope(const char *text, size_t len, const char *path, bool json,
                          anim_mq_envelope_plant plant, anim_strbuf *out, anim_error *err)
{
    anim_arena *arena = anim_arena_new();
    if (!arena)
        return anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory", path);
    mq_flat_reader rd = {arena, path, text, err, {0}};
    anim_strbuf body = {0};
    anim_json_writer w;
    anim_json_writer_init(&w, &body, true);
    int rc = -1;
    anim_error perr;
    anim_json_value *root = anim_json_parse(arena, text, len, NULL, &perr);
    if (!root) {
        anim_error_set(err, ANIM_ERR_PARSE, "REDUCE_INPUT_MISSING: %s: not JSON: %s", path,
                       perr.message);
        goto done;
    }
    if (root->type == ANIM_JSON_ARRAY) {
        if (json)
            anim_json_writer_begin_array(&w);
        for (size_t i = 0; i < anim_json_count(root); i++) {
            char prefix[32];
            snprintf(prefix, sizeof prefix, "[%zu].", i);
            if (one_entry(&rd, prefix, anim_json_item(root, i), plant, json ? &w : NULL, &body))
                goto done;
        }
        if (json)
            anim_json_writer_end_array(&w);
    } else if (one_entry(&rd, "", root, plant, json ? &w : NULL, &body)) {
        goto done;
    }
    if (json)
        anim_strbuf_putc(&body, '\n');
    if (body.failed) {
        anim_error_set(err, ANIM_ERR_NOMEM, "%s: out of memory writing the envelope", path);
        goto done;
    }
    if (json)
        anim_strbuf_append(out, body.data, body.len);
    else
        mq_put_terminal_lines(out, &body);
    rc = 0;
done:
    anim_strbuf_free(&body);
    mq_names_free(&rd.names);
    anim_arena_free(arena);
    return rc;
}
