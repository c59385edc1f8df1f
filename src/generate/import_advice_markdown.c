/* `generate import-advice --format markdown`: the advice value as tables
 * for a review comment. Presentation only (JSON is the contract). Every
 * cell that holds an asset- or config-derived string is flattened to one
 * line inside a code span that it cannot close (cell()), so a take name
 * cannot inject Markdown into a trusted thread. */
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "animsmith/utf8.h"
#include "generate/import_advice.h"

/* A code-span cell, escaped so source names cannot break the table. */
static void cell(anim_strbuf *out, const char *str)
{
    anim_strbuf_putc(out, '`');
    anim_text_markdown_cell(out, str ? str : "", str ? strlen(str) : 0);
    anim_strbuf_putc(out, '`');
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

static void row2(anim_strbuf *out, const char *label, const char *value)
{
    anim_strbuf_printf(out, "| %s | ", label);
    cell(out, value);
    anim_strbuf_puts(out, " |\n");
}

static void header(const anim_import_advice *a, const anim_advice_input *in, anim_strbuf *out)
{
    const anim_engine_profile *p = a->profile;
    anim_strbuf_puts(out, "## Engine import advice\n\n| Field | Value |\n|---|---|\n");
    row2(out, "Contract", a->schema_version == 2 ? ANIM_ADVICE_V2_SCHEMA : ANIM_ADVICE_V1_SCHEMA);
    row2(out, "Input", in->path);
    row2(out, "SHA-256", in->sha256_hex);
    anim_strbuf_printf(out, "| Bytes | %llu |\n", (unsigned long long)in->bytes);
    anim_strbuf_puts(out, "| Profile | ");
    cell(out, p->profile);
    anim_strbuf_printf(out, " revision %u, engine ", p->revision);
    cell(out, p->engine_version);
    anim_strbuf_puts(out, ", importer ");
    cell(out, p->importer);
    anim_strbuf_puts(out, " |\n");
    row2(out, "Prediction provenance", p->provenance_schema);
    row2(out, "Dependency closure", a->closure_state);
    row2(out, "State", anim_advice_state_name(a->state));
    if (a->state == ANIM_ADVICE_REFUSED)
        row2(out, "Refusal reason", a->refusal_reason);
}

static void measured_cell(anim_strbuf *out, anim_availability a, double v)
{
    if (a == ANIM_AVAIL_MEASURED) {
        anim_strbuf_putc(out, '`');
        anim_strbuf_put_f64_json(out, v);
        anim_strbuf_putc(out, '`');
    } else {
        anim_strbuf_puts(out, avail(a));
    }
}

static void clips_tables(const anim_import_advice *a, anim_strbuf *out)
{
    anim_strbuf_puts(out, "\n### Clips\n\n| Source clip | Source name | Normalized clip | "
                          "Normalized name | Loop | Owner XZ | Owner Y | Owner yaw | "
                          "Duration (s) | Speed (m/s) | Loop endpoint | Frame grid |\n"
                          "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < a->clip_count; i++) {
        const anim_advice_clip *c = &a->clips[i];
        const anim_advice_measurements *m = &c->measured;
        anim_strbuf_printf(out, "| %u | ", c->source_clip_index);
        cell(out, c->source_name);
        anim_strbuf_printf(out, " | %u | ", c->normalized_clip_index);
        cell(out, c->normalized_name);
        anim_strbuf_printf(out, " | %s | %s | %s | %s | ",
                           c->loop.set ? bool_name(c->loop.value) : "null", owner(c->owner_xz),
                           owner(c->owner_y), owner(c->owner_yaw));
        measured_cell(out, m->duration, m->duration_s);
        anim_strbuf_puts(out, " | ");
        measured_cell(out, m->speed, m->speed_mps);
        anim_strbuf_puts(out, " | ");
        if (m->loop_endpoint == ANIM_AVAIL_MEASURED)
            cell(out, m->loop_endpoint_mode);
        else
            anim_strbuf_puts(out, avail(m->loop_endpoint));
        anim_strbuf_puts(out, " | ");
        if (m->frame_grid == ANIM_AVAIL_MEASURED) {
            anim_strbuf_putc(out, '`');
            anim_strbuf_put_f64_json(out, m->frame_grid_fps);
            anim_strbuf_printf(out, " fps, %llu intervals`",
                               (unsigned long long)m->frame_grid_intervals);
        } else {
            anim_strbuf_puts(out, avail(m->frame_grid));
        }
        anim_strbuf_puts(out, " |\n");
    }
    anim_strbuf_puts(out, "\n### Importer clips\n\n| Source clip | Clip | lock_root_rotation | "
                          "lock_root_height_y | lock_root_position_xz |\n|---|---|---|---|---|\n");
    for (uint32_t i = 0; i < a->clip_count; i++) {
        const anim_advice_clip *c = &a->clips[i];
        anim_strbuf_printf(out, "| %u | ", c->source_clip_index);
        cell(out, c->normalized_name);
        anim_strbuf_printf(out, " | `%s` | `%s` | `%s` |\n", bool_name(c->lock_root_rotation),
                           bool_name(c->lock_root_height_y), bool_name(c->lock_root_position_xz));
    }
}

static void v1(const anim_import_advice *a, anim_strbuf *out)
{
    row2(out, "Identity", a->identity);
    if (!a->has_importer)
        return;
    anim_strbuf_puts(out, "\n### Model importer\n\n| Setting | Value |\n|---|---|\n");
    anim_strbuf_printf(out, "| convert_units | `%s` |\n| bake_axis_conversion | `%s` |\n",
                       bool_name(a->convert_units), bool_name(a->bake_axis_conversion));
    if (a->root_motion_source)
        row2(out, "generic_root_motion_source", a->root_motion_source);
    if (a->clip_count)
        clips_tables(a, out);
}

static void v2(const anim_import_advice *a, anim_strbuf *out)
{
    anim_strbuf_puts(out, "\n### Basis: document_import_settings\n\n| Key | Value | Origin |\n"
                          "|---|---|---|\n");
    for (uint32_t i = 0; i < a->basis_count; i++) {
        const anim_engine_setting_value *v = a->basis[i];
        anim_strbuf_puts(out, "| ");
        cell(out, v->key);
        anim_strbuf_puts(out, " | ");
        if (v->type == ANIM_ENGINE_SETTING_BOOL)
            anim_strbuf_printf(out, "`%s`", bool_name(v->boolean));
        else if (v->type == ANIM_ENGINE_SETTING_INT)
            anim_strbuf_printf(out, "`%lld`", (long long)v->integer);
        else
            cell(out, v->text);
        anim_strbuf_printf(out, " | %s |\n", anim_engine_origin_name(v->origin));
    }
    if (a->state != ANIM_ADVICE_AVAILABLE)
        return;
    if (a->projection == ANIM_ADVICE_PROJECTION_GODOT) {
        anim_strbuf_printf(out, "\n### Projection: godot_params\n\n| Parameter | Value | Origin |\n"
                                "|---|---|---|\n| `animation/fps` | `%lld` | %s |\n"
                                "| `animation/trimming` | `%s` | %s |\n",
                           (long long)a->godot_fps, anim_engine_origin_name(a->godot_fps_origin),
                           bool_name(a->godot_trimming),
                           anim_engine_origin_name(a->godot_trimming_origin));
    } else {
        const char *origin = anim_engine_origin_name(a->unreal_origin);
        anim_strbuf_printf(out, "\n### Projection: unreal_fbx_import_data\n\n"
                                "| Parameter | Value | Origin |\n|---|---|---|\n"
                                "| `bUseDefaultSampleRate` | `%s` | %s |\n"
                                "| `CustomSampleRate` | `%lld` | %s |\n",
                           bool_name(a->unreal.use_default_sample_rate), origin,
                           (long long)a->unreal.custom_sample_rate, origin);
    }
}

int anim_import_advice_write_markdown(const anim_import_advice *advice,
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
