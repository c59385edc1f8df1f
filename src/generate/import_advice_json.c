/* The import-advice JSON: the contract itself (docs/import-advice.md). The
 * members that the V1 identity covers are written by the same functions
 * for the document (pretty) and for the identity's canonical parts
 * (compact), so the digest always describes exactly what is printed. */
#include <string.h>

#include "animsmith/json_write.h"
#include "generate/import_advice.h"

static void key_availability(anim_json_writer *w, const char *key, anim_availability a)
{
    const char *name = anim_availability_name(a);
    anim_json_writer_key(w, key);
    anim_json_writer_string(w, name ? name : "unavailable");
}

static void key_owner(anim_json_writer *w, const char *key, anim_movement_owner o)
{
    anim_json_writer_key(w, key);
    if (o == ANIM_OWNER_UNSET)
        anim_json_writer_null(w);
    else
        anim_json_writer_string(w, anim_movement_owner_name(o));
}

static void write_measurements(anim_json_writer *w, const anim_advice_measurements *m)
{
    anim_json_writer_begin_object(w);
    if (m->duration == ANIM_AVAIL_MEASURED) {
        anim_json_writer_key(w, "duration_s");
        anim_json_writer_f64(w, m->duration_s);
    }
    key_availability(w, "duration_s_availability", m->duration);
    if (m->speed == ANIM_AVAIL_MEASURED) {
        anim_json_writer_key(w, "speed_mps");
        anim_json_writer_f64(w, m->speed_mps);
    }
    key_availability(w, "speed_mps_availability", m->speed);
    if (m->loop_endpoint == ANIM_AVAIL_MEASURED) {
        anim_json_writer_key(w, "loop_endpoint_mode");
        anim_json_writer_string(w, m->loop_endpoint_mode);
    }
    key_availability(w, "loop_endpoint_mode_availability", m->loop_endpoint);
    if (m->frame_grid == ANIM_AVAIL_MEASURED) {
        anim_json_writer_key(w, "frame_grid");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "fps");
        anim_json_writer_f64(w, m->frame_grid_fps);
        anim_json_writer_key_uint(w, "frame_intervals", m->frame_grid_intervals);
        anim_json_writer_end_object(w);
    }
    key_availability(w, "frame_grid_availability", m->frame_grid);
    anim_json_writer_end_object(w);
}

static void write_lifecycle_members(anim_json_writer *w, const anim_import_advice *a)
{
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, anim_advice_state_name(a->state));
    if (a->state == ANIM_ADVICE_REFUSED) {
        anim_json_writer_key(w, "refusal_reason");
        anim_json_writer_string(w, a->refusal_reason);
    }
}

static void write_clips(anim_json_writer *w, const anim_import_advice *a)
{
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < a->clip_count; i++) {
        const anim_advice_clip *c = &a->clips[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "source_clip_index", c->source_clip_index);
        anim_json_writer_key_uint(w, "normalized_clip_index", c->normalized_clip_index);
        anim_json_writer_key(w, "source_name");
        anim_json_writer_string(w, c->source_name);
        anim_json_writer_key(w, "normalized_name");
        anim_json_writer_string(w, c->normalized_name);
        anim_json_writer_key(w, "intent");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "loop");
        if (c->loop.set)
            anim_json_writer_bool(w, c->loop.value);
        else
            anim_json_writer_null(w);
        key_owner(w, "movement_owner_xz", c->owner_xz);
        key_owner(w, "movement_owner_y", c->owner_y);
        key_owner(w, "movement_owner_yaw", c->owner_yaw);
        anim_json_writer_end_object(w);
        anim_json_writer_key(w, "measurements");
        write_measurements(w, &c->measured);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

static void write_importer(anim_json_writer *w, const anim_import_advice *a)
{
    if (!a->has_importer) {
        anim_json_writer_null(w);
        return;
    }
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "model_importer");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "convert_units");
    anim_json_writer_bool(w, a->convert_units);
    anim_json_writer_key(w, "bake_axis_conversion");
    anim_json_writer_bool(w, a->bake_axis_conversion);
    if (a->root_motion_source) {
        anim_json_writer_key(w, "generic_root_motion_source");
        anim_json_writer_string(w, a->root_motion_source);
    }
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "clips");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < a->clip_count; i++) {
        const anim_advice_clip *c = &a->clips[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "source_clip_index", c->source_clip_index);
        anim_json_writer_key(w, "clip");
        anim_json_writer_string(w, c->normalized_name);
        anim_json_writer_key(w, "lock_root_rotation");
        anim_json_writer_bool(w, c->lock_root_rotation);
        anim_json_writer_key(w, "lock_root_height_y");
        anim_json_writer_bool(w, c->lock_root_height_y);
        anim_json_writer_key(w, "lock_root_position_xz");
        anim_json_writer_bool(w, c->lock_root_position_xz);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

static void write_basis(anim_json_writer *w, const anim_import_advice *a)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "kind");
    anim_json_writer_string(w, "document_import_settings");
    anim_json_writer_key(w, "settings");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < a->basis_count; i++) {
        anim_engine_write_setting(w, a->basis[i]);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

/* Native parameter names, each value with the origin of the setting it
 * comes from. */
static void write_projection(anim_json_writer *w, const anim_import_advice *a)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "kind");
    if (a->projection == ANIM_ADVICE_PROJECTION_GODOT) {
        anim_json_writer_string(w, "godot_params");
        anim_json_writer_key(w, "params");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "animation/fps");
        anim_json_writer_int(w, a->godot_fps);
        anim_json_writer_key(w, "animation/trimming");
        anim_json_writer_bool(w, a->godot_trimming);
        anim_json_writer_end_object(w);
        anim_json_writer_key(w, "origins");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "animation/fps");
        anim_json_writer_string(w, anim_engine_origin_name(a->godot_fps_origin));
        anim_json_writer_key(w, "animation/trimming");
        anim_json_writer_string(w, anim_engine_origin_name(a->godot_trimming_origin));
        anim_json_writer_end_object(w);
    } else {
        const char *origin = anim_engine_origin_name(a->unreal_origin);
        anim_json_writer_string(w, "unreal_fbx_import_data");
        anim_json_writer_key(w, "params");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "bUseDefaultSampleRate");
        anim_json_writer_bool(w, a->unreal.use_default_sample_rate);
        anim_json_writer_key(w, "CustomSampleRate");
        anim_json_writer_int(w, a->unreal.custom_sample_rate);
        anim_json_writer_end_object(w);
        anim_json_writer_key(w, "origins");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "bUseDefaultSampleRate");
        anim_json_writer_string(w, origin);
        anim_json_writer_key(w, "CustomSampleRate");
        anim_json_writer_string(w, origin);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_object(w);
}

int anim_import_advice_identity_parts(const anim_import_advice *advice, anim_strbuf parts[4],
                                      anim_error *err)
{
    anim_strbuf_append(&parts[0], advice->provenance_json ? advice->provenance_json : "",
                       advice->provenance_json ? advice->provenance_len : 0);
    anim_json_writer w;
    anim_json_writer_init(&w, &parts[1], false);
    anim_json_writer_begin_object(&w);
    write_lifecycle_members(&w, advice);
    anim_json_writer_end_object(&w);
    bool ok = anim_json_writer_ok(&w);
    anim_json_writer_init(&w, &parts[2], false);
    write_clips(&w, advice);
    ok = ok && anim_json_writer_ok(&w);
    anim_json_writer_init(&w, &parts[3], false);
    write_importer(&w, advice);
    ok = ok && anim_json_writer_ok(&w);
    for (int i = 0; i < 4; i++)
        ok = ok && !parts[i].failed;
    return ok ? 0 : anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing the identity");
}

static void write_input(anim_json_writer *w, const anim_advice_input *in)
{
    anim_json_writer_key(w, "input");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "path");
    anim_json_writer_string(w, in->path ? in->path : "");
    anim_json_writer_key(w, "sha256");
    anim_json_writer_string(w, in->sha256_hex ? in->sha256_hex : "");
    anim_json_writer_key_uint(w, "bytes", in->bytes);
    anim_json_writer_end_object(w);
}

int anim_import_advice_write_json(const anim_import_advice *advice,
                                  const anim_advice_input *input, const anim_tool_info *tool,
                                  anim_strbuf *out, anim_error *err)
{
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "schema");
    anim_json_writer_string(&w, advice->schema_version == 2 ? ANIM_ADVICE_V2_SCHEMA
                                                            : ANIM_ADVICE_V1_SCHEMA);
    anim_json_writer_key_uint(&w, "schema_version", advice->schema_version);
    anim_output_write_tool(&w, tool);
    write_input(&w, input);
    if (advice->schema_version == 1) {
        write_lifecycle_members(&w, advice);
        anim_json_writer_key(&w, "prediction_provenance");
        if (anim_engine_write_provenance(&w, advice->run, err))
            return -1;
        anim_json_writer_key(&w, "clips");
        write_clips(&w, advice);
        anim_json_writer_key(&w, "importer");
        write_importer(&w, advice);
        anim_json_writer_key(&w, "identity");
        anim_json_writer_string(&w, advice->identity);
    } else {
        anim_json_writer_key(&w, "prediction_provenance");
        if (anim_engine_write_provenance(&w, advice->run, err))
            return -1;
        anim_json_writer_key(&w, "basis");
        write_basis(&w, advice);
        anim_json_writer_key(&w, "state");
        anim_json_writer_string(&w, anim_advice_state_name(advice->state));
        if (advice->state == ANIM_ADVICE_AVAILABLE) {
            anim_json_writer_key(&w, "projection");
            write_projection(&w, advice);
        } else {
            anim_json_writer_key(&w, "refusal_reason");
            anim_json_writer_string(&w, advice->refusal_reason);
        }
    }
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
    if (!anim_json_writer_ok(&w) || out->failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing import advice");
    return 0;
}
