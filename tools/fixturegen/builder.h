/* A tiny in-memory document builder for the example-asset generator: fills
 * anim_doc structs directly (no glTF reader involved) so every fixture is a
 * few lines of recipe followed by one call to the glTF writer. */
#ifndef ANIMSMITH_FIXTUREGEN_BUILDER_H
#define ANIMSMITH_FIXTUREGEN_BUILDER_H

#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/doc.h"
#include "animsmith/error.h"

#define FG_MAX_BONES 64
#define FG_MAX_CLIPS 8
#define FG_MAX_TRACKS 32

typedef struct fg_builder {
    anim_arena *arena;
    anim_bone bones[FG_MAX_BONES];
    uint32_t bone_count;
    anim_clip clips[FG_MAX_CLIPS];
    uint32_t clip_count;
    anim_track tracks[FG_MAX_CLIPS][FG_MAX_TRACKS];
    anim_doc doc;
} fg_builder;

/* Writable storage of one track (times: key_count, values: key_count *
 * components). */
typedef struct fg_track {
    float *times;
    float *values;
    uint32_t keys;
    uint32_t components;
} fg_track;

int fg_init(fg_builder *b);
void fg_free(fg_builder *b);

/* Adds a bone (identity rotation, unit scale, given rest translation);
 * parents must be added first. Returns the bone index. */
uint32_t fg_bone(fg_builder *b, const char *name, uint32_t parent, float tx, float ty, float tz);
void fg_bone_rotation(fg_builder *b, uint32_t bone, float x, float y, float z, float w);
void fg_bone_scale(fg_builder *b, uint32_t bone, float x, float y, float z);

uint32_t fg_clip(fg_builder *b, const char *name);
/* Adds a track to the clip; times and values are left for the caller to
 * fill. Returns NULL (after printing) on exhaustion. */
fg_track fg_add_track(fg_builder *b, uint32_t clip, uint32_t bone, anim_path path,
                      anim_interp interp, uint32_t keys);

/* Finishes the document (durations, hierarchy links) and writes it. */
int fg_write(fg_builder *b, const char *path, const char *generator, anim_error *err);

#endif
