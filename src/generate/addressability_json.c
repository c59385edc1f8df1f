/* The canonical JSON of both versions: pretty-printed, keys in a fixed
 * order, one document per input followed by a newline. */
#include <stdio.h>
#include <string.h>

#include "generate/addressability.h"

/* The pinned Bevy authority of the revision-3 rules. */
#define BEVY_TAG "v0.19.0"
#define BEVY_COMMIT "c6f634ca9f406d68ba5109d921247b654cb42c10"
#define BEVY_GLTF_CRATE "bevy_gltf 0.19.0"
#define GLTF_CRATE "gltf 1.4.1"

static void write_reasons(anim_json_writer *w, const addr_reasons *r)
{
    anim_json_writer_key(w, "reasons");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < r->count; i++)
        anim_json_writer_string(w, r->codes[i]);
    anim_json_writer_end_array(w);
}

static void write_label(anim_json_writer *w, const char *fmt, uint32_t index)
{
    char label[48];
    snprintf(label, sizeof label, fmt, index);
    anim_json_writer_string(w, label);
}

static void write_setting(anim_json_writer *w, const char *key, const addr_setting *s,
                          bool word)
{
    anim_json_writer_key(w, key);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "value");
    if (!s->known)
        anim_json_writer_null(w);
    else if (word)
        anim_json_writer_string(w, s->text ? s->text : "");
    else
        anim_json_writer_bool(w, s->value);
    anim_json_writer_key_string_or_null(w, "origin", s->known ? s->origin : NULL);
    anim_json_writer_end_object(w);
}

static void write_map(anim_json_writer *w, const char *key, const addr_named_map *m,
                      const char *label_fmt)
{
    anim_json_writer_key(w, key);
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, addr_state_name(m->state));
    if (m->state == ADDR_AVAILABLE) {
        anim_json_writer_key(w, "winners");
        anim_json_writer_begin_array(w);
        for (uint32_t i = 0; i < m->count; i++) {
            anim_json_writer_begin_object(w);
            anim_json_writer_key(w, "name");
            addr_json_text(w, m->winners[i].name);
            anim_json_writer_key_uint(w, "index", m->winners[i].index);
            anim_json_writer_key(w, "label");
            write_label(w, label_fmt, m->winners[i].index);
            anim_json_writer_end_object(w);
        }
        anim_json_writer_end_array(w);
    } else {
        write_reasons(w, &m->reasons);
    }
    anim_json_writer_end_object(w);
}

static void write_target(anim_json_writer *w, const addr_target *t)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "node", t->node);
    anim_json_writer_key(w, "contributing");
    anim_json_writer_begin_array(w);
    for (uint32_t c = 0; c < t->contrib_count; c++) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "animation", t->contrib[c].animation);
        anim_json_writer_key_uint(w, "channel", t->contrib[c].channel);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, addr_state_name(t->state));
    if (t->state == ADDR_AVAILABLE) {
        anim_json_writer_key(w, "name_path");
        anim_json_writer_begin_array(w);
        for (uint32_t s = 0; s < t->segment_count; s++)
            addr_json_text(w, t->segments[s]);
        anim_json_writer_end_array(w);
        /* The slash-joined display path: the segments are the identity (a
         * name may itself hold a slash). */
        anim_json_writer_key(w, "path");
        anim_strbuf joined = ANIM_STRBUF_INIT;
        for (uint32_t s = 0; s < t->segment_count; s++) {
            if (s)
                anim_strbuf_putc(&joined, '/');
            anim_strbuf_append(&joined, t->segments[s].s, t->segments[s].len);
        }
        anim_json_writer_string_n(w, joined.data ? joined.data : "", joined.len);
        if (joined.failed)
            w->misuse = true; /* surfaces as a failed render */
        anim_strbuf_free(&joined);
        anim_json_writer_key(w, "target_id");
        anim_json_writer_string(w, t->id);
    } else {
        write_reasons(w, &t->reasons);
    }
    anim_json_writer_end_object(w);
}

void addr_write_projection(anim_json_writer *w, const addr_raw *raw, const addr_projection *p)
{
    anim_json_writer_key(w, "labels");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "coverage");
    anim_json_writer_string(w, p->label_coverage == ADDR_AVAILABLE ? "complete"
                                                                    : "required_unavailable");
    anim_json_writer_key(w, "scenes");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < raw->scene_domain.rows; i++) {
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "scene", raw->scenes[i].index);
        anim_json_writer_key(w, "label");
        write_label(w, "Scene%u", raw->scenes[i].index);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "default_scene_route");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, addr_state_name(p->default_route));
    if (p->default_route == ADDR_AVAILABLE) {
        anim_json_writer_key(w, "label");
        write_label(w, "Scene%u", raw->default_scene);
    }
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "skins");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < p->skin_count; i++) {
        const addr_skin_labels *l = &p->skins[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "skin", l->skin);
        anim_json_writer_key(w, "inverse_bind_matrices");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "label");
        write_label(w, "Skin%u/InverseBindMatrices", l->skin);
        anim_json_writer_key(w, "source");
        anim_json_writer_string(w, l->identity_fallback ? "identity_fallback" : "accessor");
        anim_json_writer_end_object(w);
        anim_json_writer_key(w, "skin_label");
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "state");
        anim_json_writer_string(w, addr_state_name(l->skin_state));
        if (l->skin_state == ADDR_AVAILABLE) {
            anim_json_writer_key(w, "label");
            write_label(w, "Skin%u", l->skin);
        } else if (l->skin_state == ADDR_REQUIRED_UNAVAILABLE) {
            write_reasons(w, &l->reasons);
        }
        anim_json_writer_end_object(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);

    anim_json_writer_key(w, "named_maps");
    anim_json_writer_begin_object(w);
    write_map(w, "scenes", &p->scene_map, "Scene%u");
    write_map(w, "animations", &p->animation_map, "Animation%u");
    write_map(w, "skins", &p->skin_map, "Skin%u");
    anim_json_writer_end_object(w);

    anim_json_writer_key(w, "targets");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < p->target_count; i++)
        write_target(w, &p->targets[i]);
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "target_coverage");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, p->target_coverage == ADDR_AVAILABLE ? "complete"
                                                                     : "required_unavailable");
    anim_json_writer_key_string_or_null(w, "reason", p->target_coverage_reason);
    anim_json_writer_end_object(w);
}

static void write_rules(anim_json_writer *w)
{
    anim_json_writer_key(w, "rules");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "profile_revision", 3);
    anim_json_writer_key(w, "bevy_tag");
    anim_json_writer_string(w, BEVY_TAG);
    anim_json_writer_key(w, "bevy_commit");
    anim_json_writer_string(w, BEVY_COMMIT);
    anim_json_writer_key(w, "bevy_gltf_crate");
    anim_json_writer_string(w, BEVY_GLTF_CRATE);
    anim_json_writer_key(w, "locked_gltf_crate");
    anim_json_writer_string(w, GLTF_CRATE);
    anim_json_writer_key(w, "named_map_policy");
    anim_json_writer_string(w, "source_order_last_write_wins");
    anim_json_writer_end_object(w);
}

int addr_render_json(const addr_doc *d, anim_strbuf *out, anim_error *err)
{
    anim_json_writer w;
    anim_json_writer_init(&w, out, true);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "schema");
    anim_json_writer_string(&w, d->version == 2 ? ADDR_V2_SCHEMA : ADDR_V1_SCHEMA);
    anim_json_writer_key_uint(&w, "schema_version", (uint64_t)d->version);
    anim_output_write_tool(&w, &d->tool);
    addr_write_input(&w, &d->inventory);
    anim_json_writer_key(&w, d->version == 2 ? "animation_inventory" : "inventory");
    addr_write_inventory(&w, &d->inventory);
    if (d->version == 2) {
        anim_json_writer_key(&w, "scene_inventory");
        anim_json_writer_begin_object(&w);
        addr_write_raw(&w, &d->raw);
        anim_json_writer_end_object(&w);
    }
    anim_json_writer_key(&w, "bevy");
    if (!d->has_bevy) {
        anim_json_writer_null(&w);
    } else {
        anim_json_writer_begin_object(&w);
        if (d->version == 2) {
            write_rules(&w);
            anim_json_writer_key(&w, "settings");
            anim_json_writer_begin_object(&w);
            write_setting(&w, "bevy_animation_feature", &d->projection.feature, false);
            write_setting(&w, "load_animations", &d->projection.load_animations, false);
            write_setting(&w, "target_pointer_width", &d->projection.pointer_width, true);
            anim_json_writer_end_object(&w);
        }
        if (addr_write_bevy_members(&w, &d->bevy, err))
            return -1;
        if (d->version == 2)
            addr_write_projection(&w, &d->raw, &d->projection);
        anim_json_writer_end_object(&w);
    }
    anim_json_writer_end_object(&w);
    anim_strbuf_putc(out, '\n');
    if (!anim_json_writer_ok(&w) || out->failed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing the document");
    return 0;
}
