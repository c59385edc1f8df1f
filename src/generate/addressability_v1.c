/* The V1 neutral animation inventory: the raw source-order animation and
 * channel rows of the same load (taken from the shared engine inventory),
 * the primary identity, the dependency closure and the identity over them.
 * Source indices are the authority; names are optional, non-unique
 * metadata kept as authored. */
#include <string.h>

#include "animsmith/json.h"
#include "generate/addressability.h"

void addr_json_text(anim_json_writer *w, addr_text t)
{
    if (t.s)
        anim_json_writer_string_n(w, t.s, t.len);
    else
        anim_json_writer_null(w);
}

void addr_json_index(anim_json_writer *w, uint32_t v)
{
    if (v == ANIM_NONE)
        anim_json_writer_null(w);
    else
        anim_json_writer_uint(w, v);
}

int addr_inventory_build(const anim_asset *asset, anim_arena *arena, addr_inventory *inv,
                         anim_error *err)
{
    memset(inv, 0, sizeof *inv);
    const anim_source *src = &asset->source;
    inv->path = src->path;
    inv->bytes = src->input_byte_count;
    if (addr_inventory_rows(asset, arena, inv, err) ||
        addr_closure_build(asset, arena, &inv->closure, err))
        return -1;
    /* The closure's primary row is the input identity. */
    memcpy(inv->sha256, inv->closure.files[0].sha256, sizeof inv->sha256);
    return addr_inventory_identity(inv, err);
}

void addr_write_input(anim_json_writer *w, const addr_inventory *inv)
{
    anim_json_writer_key(w, "input");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "path");
    anim_json_writer_string(w, inv->path ? inv->path : "");
    anim_json_writer_key(w, "sha256");
    anim_json_writer_string(w, inv->sha256);
    anim_json_writer_key_uint(w, "bytes", inv->bytes);
    anim_json_writer_end_object(w);
}

static void write_channel(anim_json_writer *w, const addr_channel *ch)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "index", ch->index);
    anim_json_writer_key(w, "sampler");
    addr_json_index(w, ch->sampler);
    anim_json_writer_key(w, "target");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "node");
    addr_json_index(w, ch->node);
    anim_json_writer_key(w, "path");
    addr_json_text(w, ch->path);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "input_accessor");
    addr_json_index(w, ch->input_accessor);
    anim_json_writer_key(w, "output_accessor");
    addr_json_index(w, ch->output_accessor);
    anim_json_writer_key(w, "interpolation");
    addr_json_text(w, ch->interpolation);
    anim_json_writer_end_object(w);
}

static void write_closure(anim_json_writer *w, const addr_closure *c)
{
    anim_json_writer_key(w, "dependency_closure");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "state");
    anim_json_writer_string(w, addr_coverage_name(c->state));
    anim_json_writer_key(w, "files");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < c->count; i++) {
        const addr_closure_file *f = &c->files[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "role");
        anim_json_writer_string(w, f->role);
        /* The same row the prediction provenance writes. */
        if (f->uri) {
            anim_json_writer_key(w, "uri");
            anim_json_writer_string(w, f->uri);
        } else {
            anim_json_writer_key(w, "path");
            anim_json_writer_string(w, f->path ? f->path : "");
        }
        anim_json_writer_key_string_or_null(w, "sha256", f->readable ? f->sha256 : NULL);
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

void addr_write_inventory(anim_json_writer *w, const addr_inventory *inv)
{
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "identity");
    anim_json_writer_string(w, inv->identity);
    anim_json_writer_key(w, "coverage");
    anim_json_writer_string(w, addr_coverage_name(inv->coverage));
    anim_json_writer_key_string_or_null(w, "coverage_reason", inv->coverage_reason);
    anim_json_writer_key_uint(w, "source_animation_count", inv->source_animation_count);
    anim_json_writer_key(w, "animations");
    anim_json_writer_begin_array(w);
    for (uint32_t a = 0; a < inv->animation_count; a++) {
        const addr_animation *an = &inv->animations[a];
        anim_json_writer_begin_object(w);
        anim_json_writer_key_uint(w, "index", an->index);
        anim_json_writer_key(w, "name");
        addr_json_text(w, an->name);
        anim_json_writer_key(w, "channels");
        anim_json_writer_begin_array(w);
        for (uint32_t c = 0; c < an->channel_count; c++)
            write_channel(w, &an->channels[c]);
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    write_closure(w, &inv->closure);
    anim_json_writer_end_object(w);
}
