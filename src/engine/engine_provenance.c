/* The prediction_provenance object of one lint file (and of the generate
 * documents that embed it): which frozen profile spoke, with its facts;
 * the input's format; every setting with where its value came from; the
 * raw source facts and the dependency closure of the same load; the
 * primary file's identity; and the contract identities the predictions
 * consume. Deterministic: fixed key order, vocabulary and source order,
 * no host path beyond the input as given, no time or environment. */
#include <string.h>

#include "animsmith/fbx.h"
#include "animsmith/measure.h"
#include "animsmith/strbuf.h"
#include "animsmith/utf8.h"
#include "engine/engine_internal.h"

/* Raw rows the provenance lists at most (counts stay exact). */
#define MAX_RAW_NODES 4096u

void engine_json_text(anim_json_writer *w, const char *s)
{
    if (!s) {
        anim_json_writer_null(w);
        return;
    }
    size_t n = strlen(s);
    size_t i = 0;
    while (i < n) {
        size_t k = anim_utf8_decode((const unsigned char *)s + i, n - i, NULL);
        if (!k)
            break;
        i += k;
    }
    if (i == n) {
        anim_json_writer_string_n(w, s, n);
        return;
    }
    anim_strbuf sb = ANIM_STRBUF_INIT;
    for (i = 0; i < n;) {
        size_t k = anim_utf8_decode((const unsigned char *)s + i, n - i, NULL);
        if (k) {
            anim_strbuf_append(&sb, s + i, k);
            i += k;
        } else {
            anim_strbuf_puts(&sb, "\xEF\xBF\xBD");
            i++;
        }
    }
    if (sb.failed)
        anim_json_writer_string(w, "\xEF\xBF\xBD");
    else
        anim_json_writer_string_n(w, sb.data ? sb.data : "", sb.len);
    anim_strbuf_free(&sb);
}

void engine_json_value(anim_json_writer *w, const anim_engine_setting_value *v)
{
    switch (v->type) {
    case ANIM_ENGINE_SETTING_BOOL:
        anim_json_writer_bool(w, v->boolean);
        break;
    case ANIM_ENGINE_SETTING_INT:
        anim_json_writer_int(w, v->integer);
        break;
    default:
        engine_json_text(w, v->text);
        break;
    }
}

static void write_profile(anim_json_writer *w, const anim_engine_profile *p)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "profile");
    anim_json_writer_string(w, p->profile);
    anim_json_writer_key_uint(w, "profile_revision", p->revision);
    anim_json_writer_key(w, "engine_version");
    anim_json_writer_string(w, p->engine_version);
    anim_json_writer_key(w, "importer");
    anim_json_writer_string(w, p->importer);
    anim_json_writer_key(w, "accepted_formats");
    anim_json_writer_begin_array(w);
    static const unsigned order[] = {ANIM_ENGINE_FORMAT_GLTF, ANIM_ENGINE_FORMAT_GLB,
                                     ANIM_ENGINE_FORMAT_FBX};
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (p->formats & order[i])
            anim_json_writer_string(w, engine_format_name(order[i]));
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "facts");
    anim_json_writer_begin_object(w);
    size_t n = 0;
    const anim_engine_fact *facts = anim_engine_profile_facts(p, &n);
    for (size_t i = 0; i < n; i++) {
        anim_json_writer_key(w, facts[i].key);
        anim_engine_fact_write(w, &facts[i]);
    }
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
}

void anim_engine_write_setting(anim_json_writer *w, const anim_engine_setting_value *v)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "key");
    anim_json_writer_string(w, v->key);
    anim_json_writer_key(w, "value");
    engine_json_value(w, v);
    anim_json_writer_key(w, "origin");
    anim_json_writer_string(w, anim_engine_origin_name(v->origin));
    if (v->selector) {
        anim_json_writer_key(w, "selector");
        engine_json_text(w, v->selector);
    }
    anim_json_writer_end_object(w);
}

/* Document settings in vocabulary order; an optional setting without a
 * default that the file leaves out is listed as unset, so its absence is
 * evidence too. */
static void write_document_settings(anim_json_writer *w, const anim_engine_run *run)
{
    size_t n = 0;
    const anim_engine_setting_def *defs = anim_engine_settings_of(run->profile, &n);
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        if (defs[i].scope != ANIM_ENGINE_SCOPE_DOCUMENT)
            continue;
        const anim_engine_setting_value *v = anim_engine_run_setting(run, defs[i].key);
        if (v) {
            anim_engine_write_setting(w, v);
            continue;
        }
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "key");
        anim_json_writer_string(w, defs[i].key);
        anim_json_writer_key(w, "value");
        anim_json_writer_null(w);
        anim_json_writer_key(w, "origin");
        anim_json_writer_string(w, "unset");
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

static void write_clip_settings(anim_json_writer *w, const anim_engine_run *run)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "coverage");
    anim_json_writer_string(w, run->overflow ? "partial" : "complete");
    anim_json_writer_key_uint(w, "count", run->source_clip_count);
    anim_json_writer_key_uint(w, "retained", run->clip_count);
    anim_json_writer_key(w, "rows");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < run->clip_count; i++) {
        const anim_engine_clip_settings *row = &run->clips[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "clip_index", row->clip_index);
        anim_json_writer_key(w, "clip");
        engine_json_text(w, row->clip);
        anim_json_writer_key(w, "duplicate_name");
        anim_json_writer_bool(w, row->duplicate_name);
        anim_json_writer_key(w, "complete");
        anim_json_writer_bool(w, row->complete);
        anim_json_writer_key(w, "values");
        anim_json_writer_begin_array(w);
        for (uint32_t k = 0; k < row->value_count; k++)
            anim_engine_write_setting(w, &row->values[k]);
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

static void key_index_or_null(anim_json_writer *w, const char *key, uint32_t v)
{
    anim_json_writer_key(w, key);
    if (v == ANIM_NONE)
        anim_json_writer_null(w);
    else
        anim_json_writer_uint(w, v);
}

static void write_fbx_source(anim_json_writer *w, const anim_fbx_facts *f)
{
    anim_json_writer_key_uint(w, "version", f->version);
    anim_json_writer_key(w, "encoding");
    anim_json_writer_string(w, f->ascii ? "ascii" : "binary");
    anim_json_writer_key_uint(w, "take_count", f->take_count);
    uint32_t keep = f->take_count < ENGINE_MAX_RAW_TAKES ? f->take_count : ENGINE_MAX_RAW_TAKES;
    anim_json_writer_key(w, "takes_coverage");
    anim_json_writer_string(w, keep == f->take_count ? "complete" : "partial");
    anim_json_writer_key(w, "takes");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; f->takes && i < keep; i++) {
        const anim_fbx_take *t = &f->takes[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "index", i);
        anim_json_writer_key(w, "name");
        engine_json_text(w, t->name);
        anim_json_writer_key(w, "span_source");
        anim_json_writer_string(w, anim_fbx_span_source_name(t->span_source));
        anim_json_writer_key(w, "start_ktime");
        anim_json_writer_int(w, t->start_ktime);
        anim_json_writer_key(w, "stop_ktime");
        anim_json_writer_int(w, t->stop_ktime);
        anim_json_writer_key(w, "time_mode");
        anim_json_writer_int(w, t->time_mode);
        anim_json_writer_key(w, "frame_period_ktime");
        anim_json_writer_int(w, t->frame_period_ktime);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "raw_coverage");
    anim_json_writer_string(w, anim_fbx_coverage_name(f->raw_coverage));
    anim_json_writer_key_uint(w, "raw_node_count", f->raw_node_count);
    uint32_t nodes = f->raw_node_count < MAX_RAW_NODES ? f->raw_node_count : MAX_RAW_NODES;
    anim_json_writer_key(w, "raw_nodes");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; f->raw_nodes && i < nodes; i++) {
        const anim_fbx_raw_node *r = &f->raw_nodes[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "index", i);
        anim_json_writer_key(w, "name");
        engine_json_text(w, r->name);
        key_index_or_null(w, "parent", r->parent);
        anim_json_writer_key(w, "id");
        anim_json_writer_int(w, r->id);
        anim_json_writer_key(w, "subclass");
        engine_json_text(w, r->subclass);
        anim_json_writer_key(w, "matchable");
        anim_json_writer_bool(w, r->matchable);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
}

static void write_raw_source(anim_json_writer *w, const engine_raw_source *raw)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "format");
    anim_json_writer_string(w, engine_format_name(raw->format));
    if (raw->fbx) {
        write_fbx_source(w, raw->fbx);
    } else {
        /* Array lengths of the file's own JSON; basis rows of the
         * predictions point into that JSON ("/animations/0"). */
        anim_json_writer_key_uint(w, "animations", raw->animations);
        anim_json_writer_key_uint(w, "channels", raw->channels);
        anim_json_writer_key(w, "channels_coverage");
        anim_json_writer_string(w, raw->channels_complete ? "complete" : "partial");
        anim_json_writer_key_uint(w, "scenes", raw->scenes);
        key_index_or_null(w, "default_scene", raw->default_scene);
        anim_json_writer_key_uint(w, "nodes", raw->nodes);
        anim_json_writer_key_uint(w, "meshes", raw->meshes);
        anim_json_writer_key_uint(w, "skins", raw->skins);
    }
    anim_json_writer_end_object(w);
}

static void write_closure(anim_json_writer *w, const engine_closure *c)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, c->state);
    anim_json_writer_key(w, "files");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < c->count; i++) {
        const engine_closure_file *f = &c->files[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "role");
        anim_json_writer_string(w, f->role);
        if (f->uri) {
            anim_json_writer_key(w, "uri");
            engine_json_text(w, f->uri);
        } else {
            anim_json_writer_key(w, "path");
            engine_json_text(w, f->path);
        }
        anim_json_writer_key(w, "sha256");
        if (f->readable)
            anim_json_writer_string(w, f->sha256);
        else
            anim_json_writer_null(w);
        anim_json_writer_key(w, "bytes");
        if (f->readable)
            anim_json_writer_uint(w, f->bytes);
        else
            anim_json_writer_null(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}

int anim_engine_write_provenance(anim_json_writer *w, const anim_engine_run *run,
                                 anim_error *err)
{
    if (!run || !run->profile)
        return anim_error_set(err, ANIM_ERR_USAGE, "prediction provenance without an engine run");
    const anim_engine_profile *p = run->profile;
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "schema");
    anim_json_writer_string(w, p->provenance_schema);
    anim_json_writer_key(w, "profile");
    write_profile(w, p);
    anim_json_writer_key(w, "input_format");
    anim_json_writer_string(w, engine_format_name(run->format));
    anim_json_writer_key(w, "settings");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "document");
    write_document_settings(w, run);
    anim_json_writer_key(w, "clips");
    write_clip_settings(w, run);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "raw_source");
    write_raw_source(w, &run->raw);
    anim_json_writer_key(w, "dependency_closure");
    write_closure(w, &run->closure);
    anim_json_writer_key(w, "primary");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "sha256");
    anim_json_writer_string(w, run->primary_sha256);
    anim_json_writer_key_uint(w, "bytes", run->primary_bytes);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "contracts");
    anim_json_writer_begin_array(w);
    anim_json_writer_string(w, p->prediction_schema);
    anim_json_writer_string(w, ANIM_MEASUREMENTS_SCHEMA);
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
    return 0;
}
