/* What inspect adds for an FBX input: the file's version, units and axes,
 * each take's span as the file declares it (the clip list shows the keys),
 * and the reader's notes on what it could not carry exactly. */
#include "inspect_fbx.h"

#include <string.h>

#include "animsmith/text.h"

static const char *axis_name(int axis)
{
    return axis == 0 ? "X" : axis == 1 ? "Y" : axis == 2 ? "Z" : "?";
}

void cli_inspect_fbx_text(const anim_fbx_facts *f, anim_strbuf *out)
{
    anim_strbuf_printf(out, "fbx source: version %u, %s, %g cm per unit, %s%s-up\n", f->version,
                       f->ascii ? "ASCII" : "binary", f->unit_scale_factor,
                       f->up_sign < 0 ? "-" : "", axis_name(f->up_axis));
    for (uint32_t i = 0; i < f->take_count; i++) {
        const anim_fbx_take *t = &f->takes[i];
        anim_strbuf_puts(out, "  take '");
        anim_text_atom(out, t->name, strlen(t->name));
        anim_strbuf_printf(out, "': %.3fs to %.3fs, %u curve(s), %u track(s)%s\n", t->start_s,
                           t->stop_s, t->curve_count, t->track_count,
                           t->track_count ? "" : " (nothing to write: convert leaves it out)");
        for (uint32_t k = 0; k < t->ignored_layer_count; k++) {
            anim_strbuf_puts(out, "    layer '");
            anim_text_atom(out, t->ignored_layers[k], strlen(t->ignored_layers[k]));
            anim_strbuf_puts(out, "' not applied (only the base layer is read)\n");
        }
    }
    for (uint32_t i = 0; i < f->note_count; i++) {
        anim_strbuf_puts(out, "  note: ");
        anim_text_atom(out, f->notes[i], strlen(f->notes[i]));
        anim_strbuf_putc(out, '\n');
    }
}

void cli_inspect_fbx_json(anim_json_writer *w, const anim_fbx_facts *f)
{
    anim_json_writer_key(w, "fbx");
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "version", f->version);
    anim_json_writer_key(w, "encoding");
    anim_json_writer_string(w, f->ascii ? "ascii" : "binary");
    anim_json_writer_key(w, "unit_scale_factor");
    anim_json_writer_f64(w, f->unit_scale_factor);
    anim_json_writer_key(w, "up_axis");
    anim_json_writer_int(w, f->up_axis);
    anim_json_writer_key(w, "up_sign");
    anim_json_writer_int(w, f->up_sign);
    anim_json_writer_key(w, "front_axis");
    anim_json_writer_int(w, f->front_axis);
    anim_json_writer_key(w, "front_sign");
    anim_json_writer_int(w, f->front_sign);
    anim_json_writer_key(w, "coord_axis");
    anim_json_writer_int(w, f->coord_axis);
    anim_json_writer_key(w, "coord_sign");
    anim_json_writer_int(w, f->coord_sign);
    anim_json_writer_key_uint(w, "joint_count", f->joint_count);
    anim_json_writer_key(w, "takes");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < f->take_count; i++) {
        const anim_fbx_take *t = &f->takes[i];
        anim_json_writer_begin_object(w);
        anim_json_writer_key(w, "name");
        anim_json_writer_string(w, t->name);
        anim_json_writer_key(w, "start_ktime");
        anim_json_writer_int(w, t->start_ktime);
        anim_json_writer_key(w, "stop_ktime");
        anim_json_writer_int(w, t->stop_ktime);
        anim_json_writer_key(w, "start_s");
        anim_json_writer_f64(w, t->start_s);
        anim_json_writer_key(w, "stop_s");
        anim_json_writer_f64(w, t->stop_s);
        anim_json_writer_key(w, "frame_rate");
        anim_json_writer_f64(w, t->frame_rate);
        anim_json_writer_key_uint(w, "curve_count", t->curve_count);
        anim_json_writer_key_uint(w, "track_count", t->track_count);
        anim_json_writer_key(w, "ignored_layers");
        anim_json_writer_begin_array(w);
        for (uint32_t k = 0; k < t->ignored_layer_count; k++)
            anim_json_writer_string(w, t->ignored_layers[k]);
        anim_json_writer_end_array(w);
        anim_json_writer_end_object(w);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "notes");
    anim_json_writer_begin_array(w);
    for (uint32_t i = 0; i < f->note_count; i++)
        anim_json_writer_string(w, f->notes[i]);
    anim_json_writer_end_array(w);
    anim_json_writer_end_object(w);
}
