/* The LOD's report: one line per mesh and the file written (text), or the
 * animsmith-lod/1 object (JSON). Names from the asset are escaped. */
#include <stdio.h>
#include <string.h>

#include "animsmith/json_write.h"
#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "meshq/mq_lod_internal.h"

/* 12345 as "12,345". */
static void put_count(anim_strbuf *out, uint64_t v)
{
    char digits[32];
    int n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v);
    for (int i = 0; i < n; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            anim_strbuf_putc(out, ',');
        anim_strbuf_putc(out, digits[i]);
    }
}

static void put_name(anim_strbuf *out, const char *s)
{
    anim_text_atom(out, s ? s : "", s ? strlen(s) : 0);
}

static void put_clips(anim_strbuf *out, const anim_lod_result *r)
{
    anim_strbuf_puts(out, " (clips: ");
    for (uint32_t c = 0; c < r->clip_count; c++) {
        if (c)
            anim_strbuf_puts(out, ", ");
        put_name(out, r->clips[c]);
    }
    if (!r->clip_count)
        anim_strbuf_puts(out, "none");
    anim_strbuf_putc(out, ')');
}

static void text_report(const anim_lod_options *o, const anim_lod_result *r,
                        const char *out_path, anim_strbuf *out)
{
    for (uint32_t i = 0; i < r->mesh_count; i++) {
        const anim_lod_mesh *m = &r->meshes[i];
        if (m->kept_as_stored) {
            anim_strbuf_puts(out, "mesh '");
            put_name(out, m->name);
            anim_strbuf_puts(out, "': ");
            put_count(out, m->source_triangles);
            anim_strbuf_puts(out, " triangles kept as stored, not measurable: ");
            put_name(out, m->kept_as_stored);
            anim_strbuf_putc(out, '\n');
            continue;
        }
        if (m->reading.state != ANIM_MQ_MEASURED || m->triangles == 0)
            continue;
        anim_strbuf_puts(out, "mesh '");
        put_name(out, m->name);
        anim_strbuf_puts(out, "': ");
        put_count(out, m->source_triangles);
        anim_strbuf_puts(out, " -> ");
        put_count(out, m->triangles);
        anim_strbuf_puts(out, " triangles");
        if (o->has_ratio) {
            anim_strbuf_puts(out, " at ratio ");
            anim_strbuf_put_f64_plain(out, o->ratio);
            anim_strbuf_puts(out, ", residual ");
        } else {
            anim_strbuf_puts(out, ", certified residual ");
        }
        anim_strbuf_put_f64_plain(out, m->reading.value);
        anim_strbuf_puts(out, " m");
        if (o->has_max_residual) {
            /* A --ratio reduction is measured, not searched, so it can
             * land over the bound; the line says which side it is on. */
            anim_strbuf_puts(out, m->reading.value <= o->max_residual ? " <= " : " > ");
            anim_strbuf_put_f64_plain(out, o->max_residual);
            anim_strbuf_puts(out, " m");
        }
        put_clips(out, r);
        anim_strbuf_putc(out, '\n');
    }
    if (r->failure) {
        anim_strbuf_puts(out, "not certified: ");
        put_name(out, r->failure);
        anim_strbuf_puts(out, "\nnothing written\n");
    } else if (out_path) {
        anim_strbuf_puts(out, "wrote ");
        put_name(out, out_path);
        anim_strbuf_puts(out, " (");
        put_count(out, r->bytes.len);
        anim_strbuf_puts(out, " bytes)\n");
    }
}

static void json_reading(anim_json_writer *w, const anim_mq_reading *r)
{
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, r->state == ANIM_MQ_MEASURED  ? "measured"
                               : r->state == ANIM_MQ_REFUSED ? "refused"
                                                             : "not-measurable");
    if (r->state == ANIM_MQ_MEASURED) {
        anim_json_writer_key(w, "residual");
        anim_json_writer_f64(w, r->value);
        anim_json_writer_key_uint(w, "samples", r->samples);
        anim_json_writer_key_uint(w, "measured", r->measured);
        anim_json_writer_key(w, "uncarried");
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "source", r->uncarried_source_count);
        anim_json_writer_key_uint(w, "candidate", r->uncarried_candidate_count);
        anim_json_writer_end_object(w);
        anim_json_writer_key(w, "sampleGap");
        anim_json_writer_f64(w, r->sample_gap);
    } else {
        anim_json_writer_key_string_or_null(w, "code", r->code);
        anim_json_writer_key_string_or_null(w, "reason", r->reason);
    }
}

static void json_report(const anim_lod_options *o, const anim_lod_result *r,
                        const char *out_path, anim_strbuf *out)
{
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key_string_or_null(&w, "schema", ANIM_LOD_SCHEMA);
    anim_json_writer_key_string_or_null(&w, "source", o->source_path);
    anim_json_writer_key_string_or_null(&w, "output", r->failure ? NULL : out_path);
    anim_json_writer_key(&w, "bytes");
    if (r->failure || !out_path)
        anim_json_writer_null(&w);
    else
        anim_json_writer_uint(&w, r->bytes.len);
    anim_json_writer_key(&w, "mode");
    anim_json_writer_string(&w, o->has_ratio ? "ratio" : "search");
    anim_json_writer_key(&w, "seams");
    anim_json_writer_string(&w, o->seams == ANIM_LOD_SEAMS_LOCK ? "lock" : "meshopt");
    anim_json_writer_key(&w, "maxResidual");
    if (o->has_max_residual)
        anim_json_writer_f64(&w, o->max_residual);
    else
        anim_json_writer_null(&w);
    anim_json_writer_key(&w, "certified");
    anim_json_writer_bool(&w, r->certified);
    anim_json_writer_key_string_or_null(&w, "failure", r->failure);
    anim_json_writer_key(&w, "clips");
    anim_json_writer_begin_array(&w);
    for (uint32_t c = 0; c < r->clip_count; c++)
        anim_json_writer_string(&w, r->clips[c] ? r->clips[c] : "");
    anim_json_writer_end_array(&w);
    anim_json_writer_key(&w, "meshes");
    anim_json_writer_begin_array(&w);
    for (uint32_t i = 0; i < r->mesh_count; i++) {
        const anim_lod_mesh *m = &r->meshes[i];
        anim_json_writer_begin_object(&w);
        anim_json_writer_key_uint(&w, "index", m->mesh);
        anim_json_writer_key_string_or_null(&w, "mesh", m->name);
        anim_json_writer_key_uint(&w, "sourceTriangles", m->source_triangles);
        anim_json_writer_key_uint(&w, "triangles", m->triangles);
        anim_json_writer_key_uint(&w, "sourceVertices", m->source_vertices);
        anim_json_writer_key_uint(&w, "vertices", m->vertices);
        anim_json_writer_key(&w, "ratio");
        anim_json_writer_f64(&w, m->ratio);
        anim_json_writer_key_uint(&w, "steps", m->steps);
        anim_json_writer_key_uint(&w, "seamVertices", m->seam_vertices);
        anim_json_writer_key_uint(&w, "seamVerticesDropped", m->seam_vertices_dropped);
        anim_json_writer_key_string_or_null(&w, "keptAsStored", m->kept_as_stored);
        if (m->triangles)
            json_reading(&w, &m->reading);
        anim_json_writer_end_object(&w);
    }
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
}

void anim_lod_report(const anim_lod_options *o, const anim_lod_result *r, const char *out_path,
                     bool json, anim_strbuf *out)
{
    if (json)
        json_report(o, r, out_path, out);
    else
        text_report(o, r, out_path, out);
}
