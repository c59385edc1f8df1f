/* meshq/ owns mesh quality: the skinning-envelope residual of a reduced
 * (LOD) skinned mesh against its source (mq_residual.c, over the UV index
 * of mq_uv_index.c), the envelope helper (mq_envelope.c), the flat 2-D
 * request and its report (mq_flat*.c, mq_report.c), the glTF side
 * (mq_gltf*.c) and LOD generation (mq_lod*.c). This header holds what
 * those files share and nothing outside the folder includes. */
#ifndef ANIMSMITH_MQ_H
#define ANIMSMITH_MQ_H

#include "animsmith/json_write.h"
#include "animsmith/meshq.h"
#include "animsmith/strbuf.h"

/* A number as JavaScript's String(number) writes it ("1e-7", "1.5e+21",
 * "0.1", "-0" as "0"): the digest's canonical form and the refusal
 * messages use it, so one value reads one way everywhere. Non-finite
 * values print as "NaN", "Infinity", "-Infinity". */
void mq_put_js_number(anim_strbuf *sb, double v);

/* A string as JSON.stringify writes it (quotes included). */
void mq_put_js_string(anim_strbuf *sb, const char *s);

/* Appends raw's lines to out, each escaped for a terminal (names taken
 * from assets may hold control or bidi characters). */
void mq_put_terminal_lines(anim_strbuf *out, const anim_strbuf *raw);

/* The row body shared by the flat and glTF reports: state, value, bound,
 * verdict, samples, art, worst and the skinning detail (everything but
 * "worst.at", which the caller writes through at()). */
typedef void (*mq_write_at_fn)(anim_json_writer *w, const anim_mq_reading *reading, void *ctx);
typedef struct mq_row_args {
    const anim_mq_reading *reading;
    const char *const *bone_names;
    const anim_mq_envelope *envelope;
    const char *source_id;
    const char *source_digest;
    bool has_bound;
    double bound;
    mq_write_at_fn at;          /* writes the worst sample's "at" object */
    void *at_ctx;
    /* Writes one uncarried sample (its UV, or more). */
    void (*uncarried)(anim_json_writer *w, uint32_t sample, void *ctx);
    uint64_t uncarried_limit;   /* UINT64_MAX: all */
} mq_row_args;

/* Writes the members of the row object after its "id" (the caller opens
 * and closes it and writes "id" and any members of its own first) and
 * counts it into outcome. */
void mq_write_row_body(anim_json_writer *w, const mq_row_args *args, anim_mq_outcome *outcome);

/* A sample's place in a row's "worst.at": {art_key: [x, y]} for an art
 * sample ("pixel" in the flat form, "texel" on glTF) or {"vertex": i},
 * then its "uv". */
void mq_write_sample_at(anim_json_writer *w, const anim_mq_sample *s, const char *art_key);

/* Counts one row into outcome; its verdict when measured ("pass", "fail"
 * or "undeclared"), else NULL. */
const char *mq_count_row(anim_mq_outcome *outcome, const anim_mq_reading *reading,
                         bool has_bound, double bound);

#endif
