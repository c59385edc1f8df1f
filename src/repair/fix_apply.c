/* The plan-and-patch step: copy the patchable buffers once, then run each
 * selected repair in order over every rotation track,
 * recording what changed and what had to be skipped. */
#include <stdlib.h>
#include <string.h>

#include "repair/fix_internal.h"

static const char unnamed[] = "<unnamed>";

/* Copies of every buffer that can be written back (GLB BIN chunk and
 * external files). Data-URI buffers stay NULL: patching them would mean
 * re-encoding the JSON, which is not byte-surgical. */
static int copy_buffers(anim_fix *fix, anim_error *err)
{
    const anim_source *src = &fix->asset->source;
    uint32_t n = src->buffer_count;
    fix->buffer_count = n;
    fix->buffers = anim_arena_calloc(fix->arena, n ? n : 1, sizeof *fix->buffers);
    fix->buffer_changed = anim_arena_calloc(fix->arena, n ? n : 1, sizeof *fix->buffer_changed);
    if (!fix->buffers || !fix->buffer_changed)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t b = 0; b < n; b++) {
        const anim_buffer *buf = &src->buffers[b];
        if (buf->kind == ANIM_BUFFER_DATA_URI)
            continue;
        fix->buffers[b] = anim_arena_alloc(fix->arena, buf->data_length);
        if (!fix->buffers[b])
            return anim_error_set(err, ANIM_ERR_NOMEM, "buffer %u: out of memory", b);
        if (buf->data_length)
            memcpy(fix->buffers[b], buf->data, buf->data_length);
    }
    return 0;
}

static uint32_t rotation_track_total(const anim_doc *doc)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c < doc->clip_count; c++)
        for (uint32_t t = 0; t < doc->clips[c].track_count; t++)
            if (doc->clips[c].tracks[t].path == ANIM_PATH_ROTATION)
                n++;
    return n;
}

static int run_pass(anim_fix *fix, anim_fix_pass *pass, uint32_t capacity, anim_error *err)
{
    const anim_doc *doc = &fix->asset->doc;
    pass->tracks = anim_arena_calloc(fix->arena, capacity ? capacity : 1, sizeof *pass->tracks);
    pass->skips = anim_arena_calloc(fix->arena, capacity ? capacity : 1, sizeof *pass->skips);
    if (!pass->tracks || !pass->skips)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        /* Labels are the authored names, not the loader's "animationN" /
         * "name#n" disambiguation, so they match what the artist typed. */
        const char *clip_label = clip->has_name ? clip->base_name : unnamed;
        for (uint32_t t = 0; t < clip->track_count; t++) {
            const anim_track *track = &clip->tracks[t];
            if (track->path != ANIM_PATH_ROTATION)
                continue;
            const anim_bone *bone = &doc->bones[track->bone];
            const char *bone_label = bone->has_name ? bone->name : unnamed;
            fix_span span;
            bool oom;
            const char *skip = fix_locate(fix, track, &span, &oom);
            if (!skip && !oom)
                skip = fix_overlap(fix, track, &span, &oom);
            if (oom)
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
            uint32_t keys = 0;
            if (!skip) {
                if (pass->id == ANIM_REPAIR_QUAT_NORM)
                    keys = fix_quat_norm_track(&span, &skip);
                else
                    keys = fix_quat_flip_track(&span);
                if (keys)
                    fix->buffer_changed[span.buffer] = true;
            }
            if (keys) {
                pass->tracks[pass->track_count++] =
                    (anim_fix_track){clip_label, bone_label, c, t, keys};
                pass->keys += keys;
            }
            if (skip)
                pass->skips[pass->skip_count++] =
                    (anim_fix_skip){clip_label, bone_label, c, t, skip};
        }
    }
    return 0;
}

anim_fix *anim_fix_apply(const anim_asset *asset, const anim_repair_id *ids, uint32_t count,
                         anim_error *err)
{
    if (count > ANIM_REPAIR_COUNT) {
        anim_error_set(err, ANIM_ERR_USAGE, "at most %d repairs", ANIM_REPAIR_COUNT);
        return NULL;
    }
    for (uint32_t i = 0; i < count; i++)
        if ((unsigned)ids[i] >= ANIM_REPAIR_COUNT) {
            anim_error_set(err, ANIM_ERR_USAGE, "unknown repair id %d", (int)ids[i]);
            return NULL;
        }
    anim_fix *fix = calloc(1, sizeof *fix);
    if (fix)
        fix->arena = anim_arena_new();
    if (!fix || !fix->arena) {
        free(fix);
        anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    fix->asset = asset;
    if (copy_buffers(fix, err)) {
        anim_fix_free(fix);
        return NULL;
    }
    uint32_t capacity = rotation_track_total(&asset->doc);
    for (uint32_t i = 0; i < count; i++) {
        anim_fix_pass *pass = &fix->passes[fix->pass_count++];
        pass->id = ids[i];
        if (run_pass(fix, pass, capacity, err)) {
            anim_fix_free(fix);
            return NULL;
        }
        fix->keys += pass->keys;
    }
    return fix;
}

bool anim_fix_pending(const anim_fix *fix)
{
    return fix->keys > 0;
}

void anim_fix_free(anim_fix *fix)
{
    if (!fix)
        return;
    anim_arena_free(fix->arena);
    free(fix);
}
