/* Admission of the illustrative blend's local streams: every shown clip's
 * sampled local TRS, ten f32 per bone and frame. The aggregate counts and
 * byte arithmetic are checked before any value is looked at or any stream
 * allocated, and a budget excess omits every stream rather than keeping
 * whichever clips fit first. A clip whose tracks are malformed loses its
 * own stream only. */
#include <string.h>

#include "animsmith/base64.h"
#include "report/report_internal.h"

const char *report_local_admission(const report_doc *rd)
{
    const anim_doc *doc = rd->doc;
    if (doc->bone_count > ANIM_HTML_REPORT_LOCAL_BONES)
        return "the skeleton has more than 1,024 bones, the illustrative blend's limit";
    if (rd->clip_count > ANIM_HTML_REPORT_LOCAL_CLIPS)
        return "the report holds more than 4,096 clips, the illustrative blend's limit";
    uint64_t tracks = 0, records = 0;
    for (uint32_t i = 0; i < rd->clip_count; i++) {
        const anim_clip *clip = &doc->clips[rd->clips[i]];
        tracks += clip->track_count;
        /* frames * bones, each factor < 2^32: no overflow in 64 bits */
        records += (uint64_t)rd->series[rd->clips[i]].frame_count * doc->bone_count;
        if (records > ANIM_HTML_REPORT_LOCAL_BYTES / 40)
            return "the clips' local transforms would add more than 32 MiB, the illustrative "
                   "blend's limit";
    }
    if (tracks > ANIM_HTML_REPORT_LOCAL_TRACKS)
        return "the clips hold more than 65,536 tracks, the illustrative blend's limit";
    size_t b64;
    if (!anim_base64_encoded_len((size_t)records * 40, &b64))
        return "the local transforms' encoded size overflows";
    return NULL;
}

const char *report_local_clip_omission(const anim_doc *doc, const anim_clip *clip)
{
    for (uint32_t i = 0; i < clip->track_count; i++) {
        const anim_track *t = &clip->tracks[i];
        if (t->bone >= doc->bone_count)
            return "a track targets a node outside the skeleton";
        if (t->path != ANIM_PATH_TRANSLATION && t->path != ANIM_PATH_ROTATION &&
            t->path != ANIM_PATH_SCALE)
            return "a track has a property other than translation, rotation or scale";
        uint32_t want = t->path == ANIM_PATH_ROTATION ? 4 : 3;
        if (t->components != want)
            return "a track's values have the wrong width for its property";
        if (!anim_track_is_valid(t))
            return "a track's keys are malformed (times, counts or values)";
        for (uint32_t j = 0; j < i; j++)
            if (clip->tracks[j].bone == t->bone && clip->tracks[j].path == t->path)
                return "two tracks drive the same property of one bone";
    }
    return NULL;
}

bool report_local_topology_ok(const anim_doc *doc)
{
    for (uint32_t b = 0; b < doc->bone_count; b++) {
        uint32_t p = doc->bones[b].parent;
        if (p != ANIM_NONE && p >= b)
            return false;
    }
    return true;
}
