/* What the check catalog does not carry: the family (the docs page a
 * check is described on) and the one-line summary of each check. Kept in
 * the library so `animsmith checks` and the SARIF rule descriptions say
 * the same thing. Keyed by id; a catalog entry missing here is a build
 * defect the checks_* transcript tests catch ("?"). */
#include <string.h>

#include "animsmith/report.h"

typedef struct {
    const char *id, *family, *summary;
} check_blurb;

static const check_blurb blurbs[] = {
    {"nan", "track", "non-finite key times or values (cubic tangents included)"},
    {"time-monotonic", "track", "negative or non-increasing key times; a late first key (note)"},
    {"quat-norm", "track", "rotation keys whose length is off 1 by more than 1e-3 (fix repairs)"},
    {"quat-flip", "track", "adjacent rotation keys in opposite hemispheres (fix repairs)"},
    {"duration-sanity", "track", "empty or degenerate clips, a missed duration_s pin, ragged ends"},
    {"scale-keys", "scale", "animated scale"},
    {"non-uniform-scale", "scale", "scale axes that differ"},
    {"constant-nonunit-scale", "scale", "a scale track pinned away from 1"},
    {"constant-track", "track", "tracks with several keys that never move (export bloat)"},
    {"required-bones", "bones", "[rig] required_bones missing or ambiguous in the skeleton"},
    {"rest-world-scale", "scale", "rest-world scale of attachment/socket nodes"},
    {"missing-bones", "bones", "animates_bones entries without keys in the clip"},
    {"frozen-bone", "bones", "animates_bones entries that are keyed but barely rotate"},
    {"duplicate-loop-endpoint", "loop", "a loop whose last key repeats its first pose"},
    {"loop-closure", "loop", "a loop's last frame far from its first"},
    {"loop-seam", "loop", "the wrap step of the feet against the in-clip stride"},
    {"loop-seam-vel", "loop", "linear velocity jump across the loop seam"},
    {"loop-seam-rot", "loop", "angular velocity jump across the loop seam"},
    {"root-motion-speed", "travel", "measured root speed against the speed_mps pin"},
    {"gait-group", "group", "stride-phase spread of a blend ring"},
    {"sync-group", "group", "duration, frame count, fps and endpoint agreement of a set"},
    {"time-complement", "group", "mirrored members that do not cover each other's phase"},
    {"in-place", "travel", "travel that contradicts movement_owner_xz"},
    {"fps", "travel", "keys and duration off the declared frame grid"},
    {"bind-pose", "pose", "first frame far from the rest pose"},
    {"foot-slide", "travel", "feet moving during stance against the expected ground speed"},
    {"engine-addressability", "engine", "Bevy Animation{i} selectors for every source animation"},
    {"engine-unit-scale", "engine", "Bevy glTF metre mapping, scene, primitive and selected nodes"},
    {"engine-track-support", "engine", "Bevy animation feature and load gates per animation"},
    {"engine-root-motion", "engine", "Unity Generic root-motion routing against movement owners"},
    {"engine-clip-boundary", "engine", "Unreal whole end frame of each FBX animation stack"},
};

static const check_blurb *blurb_of(const char *id)
{
    for (size_t i = 0; id && i < sizeof blurbs / sizeof *blurbs; i++)
        if (strcmp(blurbs[i].id, id) == 0)
            return &blurbs[i];
    return NULL;
}

const char *anim_check_family(const char *id)
{
    const check_blurb *b = blurb_of(id);
    return b ? b->family : "?";
}

const char *anim_check_summary(const char *id)
{
    const check_blurb *b = blurb_of(id);
    return b ? b->summary : "?";
}
