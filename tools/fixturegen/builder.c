/* In-memory document builder for the example-asset generator. */
#include "builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/gltf_write.h"

int fg_init(fg_builder *b)
{
    memset(b, 0, sizeof *b);
    b->arena = anim_arena_new();
    return b->arena ? 0 : -1;
}

void fg_free(fg_builder *b)
{
    anim_arena_free(b->arena);
    b->arena = NULL;
}

static void die(const char *what)
{
    fprintf(stderr, "animsmith-fixturegen: %s\n", what);
    exit(1);
}

uint32_t fg_bone(fg_builder *b, const char *name, uint32_t parent, float tx, float ty, float tz)
{
    if (b->bone_count >= FG_MAX_BONES)
        die("too many bones");
    if (parent != ANIM_NONE && parent >= b->bone_count)
        die("parent must be added before its child");
    uint32_t i = b->bone_count++;
    anim_bone *bone = &b->bones[i];
    memset(bone, 0, sizeof *bone);
    bone->name = name;
    bone->has_name = true;
    bone->parent = parent;
    bone->depth = parent == ANIM_NONE ? 0 : b->bones[parent].depth + 1;
    bone->node = i;
    bone->first_child = ANIM_NONE;
    bone->next_sibling = ANIM_NONE;
    bone->rest_translation[0] = tx;
    bone->rest_translation[1] = ty;
    bone->rest_translation[2] = tz;
    bone->rest_rotation[3] = 1.0;
    bone->rest_scale[0] = bone->rest_scale[1] = bone->rest_scale[2] = 1.0;
    bone->mesh = ANIM_NONE;
    bone->skin = ANIM_NONE;
    return i;
}

void fg_bone_rotation(fg_builder *b, uint32_t bone, float x, float y, float z, float w)
{
    double *r = b->bones[bone].rest_rotation;
    r[0] = x;
    r[1] = y;
    r[2] = z;
    r[3] = w;
}

void fg_bone_scale(fg_builder *b, uint32_t bone, float x, float y, float z)
{
    double *s = b->bones[bone].rest_scale;
    s[0] = x;
    s[1] = y;
    s[2] = z;
}

uint32_t fg_clip(fg_builder *b, const char *name)
{
    if (b->clip_count >= FG_MAX_CLIPS)
        die("too many clips");
    uint32_t i = b->clip_count++;
    anim_clip *c = &b->clips[i];
    memset(c, 0, sizeof *c);
    c->name = name;
    c->has_name = true;
    c->animation = i;
    c->tracks = b->tracks[i];
    return i;
}

fg_track fg_add_track(fg_builder *b, uint32_t clip, uint32_t bone, anim_path path,
                      anim_interp interp, uint32_t keys)
{
    anim_clip *c = &b->clips[clip];
    if (c->track_count >= FG_MAX_TRACKS)
        die("too many tracks");
    anim_track *t = &b->tracks[clip][c->track_count];
    memset(t, 0, sizeof *t);
    uint32_t comps = path == ANIM_PATH_ROTATION ? 4 : 3;
    uint32_t elems = keys * (interp == ANIM_INTERP_CUBICSPLINE ? 3 : 1);
    fg_track ft;
    ft.keys = keys;
    ft.components = comps;
    ft.times = anim_arena_calloc(b->arena, keys, sizeof(float));
    ft.values = anim_arena_calloc(b->arena, (size_t)elems * comps, sizeof(float));
    if (!ft.times || !ft.values)
        die("out of memory");
    t->bone = bone;
    t->node = bone;
    t->path = path;
    t->interp = interp;
    t->key_count = keys;
    t->times = ft.times;
    t->components = comps;
    t->value_count = elems;
    t->values = ft.values;
    t->channel = c->track_count;
    t->sampler = c->track_count;
    t->input_accessor = ANIM_NONE;
    t->output_accessor = ANIM_NONE;
    c->track_count++;
    return ft;
}

static void finish(fg_builder *b)
{
    for (uint32_t i = b->bone_count; i-- > 0;) {
        anim_bone *bone = &b->bones[i];
        bone->child_count = 0;
        if (bone->parent == ANIM_NONE)
            continue;
        anim_bone *p = &b->bones[bone->parent];
        bone->next_sibling = p->first_child;
        p->first_child = i;
    }
    for (uint32_t i = 0; i < b->bone_count; i++)
        if (b->bones[i].parent != ANIM_NONE)
            b->bones[b->bones[i].parent].child_count++;
    for (uint32_t c = 0; c < b->clip_count; c++) {
        anim_clip *clip = &b->clips[c];
        double d = 0;
        uint32_t mk = 0;
        for (uint32_t t = 0; t < clip->track_count; t++) {
            const anim_track *tr = &clip->tracks[t];
            for (uint32_t k = 0; k < tr->key_count; k++)
                if ((double)tr->times[k] > d)
                    d = tr->times[k];
            if (tr->key_count > mk)
                mk = tr->key_count;
        }
        clip->duration_s = d;
        clip->max_keys = mk;
    }
    memset(&b->doc, 0, sizeof b->doc);
    b->doc.bones = b->bones;
    b->doc.bone_count = b->bone_count;
    b->doc.node_count = b->bone_count;
    b->doc.clips = b->clips;
    b->doc.clip_count = b->clip_count;
    b->doc.default_scene = 0;
}

int fg_write(fg_builder *b, const char *path, const char *generator, anim_error *err)
{
    finish(b);
    return anim_gltf_write_file(&b->doc, path, generator, NULL, err);
}
