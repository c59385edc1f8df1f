/* `generate import-advice --format text`: the advice value line by line,
 * for reading. Presentation only (JSON is the contract): it shows the
 * same members under the same names and adds no conclusion. Every
 * asset- or config-derived string is escaped so a take name cannot drive
 * the terminal. */
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "generate/import_advice.h"

static void quoted(anim_strbuf *out, const char *s)
{
    anim_text_debug_quote(out, s ? s : "", s ? strlen(s) : 0);
}

static void atom(anim_strbuf *out, const char *s)
{
    anim_text_atom(out, s ? s : "", s ? strlen(s) : 0);
}

static const char *bool_name(bool b)
{
    return b ? "true" : "false";
}

static const char *avail(anim_availability a)
{
    const char *n = anim_availability_name(a);
    return n ? n : "unavailable";
}

static const char *owner(anim_movement_owner o)
{
    return o == ANIM_OWNER_UNSET ? "null" : anim_movement_owner_name(o);
}

static void header(const anim_import_advice *a, const anim_advice_input *in, anim_strbuf *out)
{
    const anim_engine_profile *p = a->profile;
    anim_strbuf_printf(out, "import advice: %s\n",
                       a->schema_version == 2 ? ANIM_ADVICE_V2_SCHEMA : ANIM_ADVICE_V1_SCHEMA);
    anim_strbuf_puts(out, "input: ");
    atom(out, in->path);
    anim_strbuf_printf(out, " (sha256 %s, %llu bytes)\n", in->sha256_hex ? in->sha256_hex : "",
                       (unsigned long long)in->bytes);
    anim_strbuf_printf(out, "profile: %s revision %u (engine %s, importer %s)\n", p->profile,
                       p->revision, p->engine_version, p->importer);
    anim_strbuf_printf(out, "prediction provenance: %s, dependency closure %s\n",
                       p->provenance_schema, a->closure_state);
}

static void state_line(const anim_import_advice *a, anim_strbuf *out)
{
    anim_strbuf_printf(out, "state: %s", anim_advice_state_name(a->state));
    if (a->state == ANIM_ADVICE_REFUSED)
        anim_strbuf_printf(out, " (refusal_reason %s)", a->refusal_reason);
    anim_strbuf_putc(out, '\n');
}

static void measurement(anim_strbuf *out, const char *key, anim_availability a, double v)
{
    anim_strbuf_printf(out, " %s=", key);
    if (a == ANIM_AVAIL_MEASURED)
        anim_strbuf_put_f64_json(out, v);
    else
        anim_strbuf_puts(out, avail(a));
}

static void clip_lines(const anim_advice_clip *c, anim_strbuf *out)
{
    const anim_advice_measurements *m = &c->measured;
    anim_strbuf_printf(out, "clip %u ", c->source_clip_index);
    quoted(out, c->source_name);
    anim_strbuf_printf(out, " -> normalized clip %u ", c->normalized_clip_index);
    quoted(out, c->normalized_name);
    anim_strbuf_printf(out, "\n  intent: loop=%s movement_owner_xz=%s movement_owner_y=%s "
                            "movement_owner_yaw=%s\n",
                       c->loop.set ? bool_name(c->loop.value) : "null", owner(c->owner_xz),
                       owner(c->owner_y), owner(c->owner_yaw));
    anim_strbuf_puts(out, "  measurements:");
    measurement(out, "duration_s", m->duration, m->duration_s);
    measurement(out, "speed_mps", m->speed, m->speed_mps);
    anim_strbuf_printf(out, " loop_endpoint_mode=%s",
                       m->loop_endpoint == ANIM_AVAIL_MEASURED ? m->loop_endpoint_mode
                                                               : avail(m->loop_endpoint));
    anim_strbuf_puts(out, " frame_grid=");
    if (m->frame_grid == ANIM_AVAIL_MEASURED) {
        anim_strbuf_put_f64_json(out, m->frame_grid_fps);
        anim_strbuf_printf(out, "fps/%llu", (unsigned long long)m->frame_grid_intervals);
    } else {
        anim_strbuf_puts(out, avail(m->frame_grid));
    }
    anim_strbuf_printf(out, "\n  importer: lock_root_rotation=%s lock_root_height_y=%s "
                            "lock_root_position_xz=%s\n",
                       bool_name(c->lock_root_rotation), bool_name(c->lock_root_height_y),
                       bool_name(c->lock_root_position_xz));
}

static void setting_value(anim_strbuf *out, const anim_engine_setting_value *v)
{
    if (v->type == ANIM_ENGINE_SETTING_BOOL)
        anim_strbuf_puts(out, bool_name(v->boolean));
    else if (v->type == ANIM_ENGINE_SETTING_INT)
        anim_strbuf_printf(out, "%lld", (long long)v->integer);
    else
        quoted(out, v->text);
}

static void v1(const anim_import_advice *a, anim_strbuf *out)
{
    state_line(a, out);
    if (a->has_importer) {
        anim_strbuf_printf(out, "model importer: convert_units=%s bake_axis_conversion=%s",
                           bool_name(a->convert_units), bool_name(a->bake_axis_conversion));
        if (a->root_motion_source) {
            anim_strbuf_puts(out, " generic_root_motion_source=");
            quoted(out, a->root_motion_source);
        }
        anim_strbuf_printf(out, "\nclips: %u\n", a->clip_count);
    }
    for (uint32_t i = 0; i < a->clip_count; i++)
        clip_lines(&a->clips[i], out);
    anim_strbuf_printf(out, "identity: %s\n", a->identity);
}

static void v2(const anim_import_advice *a, anim_strbuf *out)
{
    anim_strbuf_puts(out, "basis: document_import_settings\n");
    for (uint32_t i = 0; i < a->basis_count; i++) {
        const anim_engine_setting_value *v = a->basis[i];
        anim_strbuf_printf(out, "  %s = ", v->key);
        setting_value(out, v);
        anim_strbuf_printf(out, " (%s)\n", anim_engine_origin_name(v->origin));
    }
    state_line(a, out);
    if (a->state != ANIM_ADVICE_AVAILABLE)
        return;
    if (a->projection == ANIM_ADVICE_PROJECTION_GODOT) {
        anim_strbuf_printf(out, "projection: godot_params\n  animation/fps = %lld (%s)\n"
                                "  animation/trimming = %s (%s)\n",
                           (long long)a->godot_fps, anim_engine_origin_name(a->godot_fps_origin),
                           bool_name(a->godot_trimming),
                           anim_engine_origin_name(a->godot_trimming_origin));
    } else {
        const char *origin = anim_engine_origin_name(a->unreal_origin);
        anim_strbuf_printf(out, "projection: unreal_fbx_import_data\n"
                                "  bUseDefaultSampleRate = %s (%s)\n"
                                "  CustomSampleRate = %lld (%s)\n",
                           bool_name(a->unreal.use_default_sample_rate), origin,
                           (long long)a->unreal.custom_sample_rate, origin);
    }
}

int anim_import_advice_write_text(const anim_import_advice *advice,
                                  const anim_advice_input *input, anim_strbuf *out,
                                  anim_error *err)
{
    header(advice, input, out);
    if (advice->schema_version == 2)
        v2(advice, out);
    else
        v1(advice, out);
    return out->failed ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : 0;
}
