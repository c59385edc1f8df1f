/* `fix`: lossless, byte-surgical quaternion repairs (spec section 8).
 *
 * A repair never re-serializes anything. The selected repairs run in order
 * over private copies of the asset's buffers (so quat-flip sees what
 * quat-norm wrote); writing then copies the input file verbatim and swaps
 * in the patched buffer bytes, so the only bytes that can differ between
 * input and output are the rotation key values that were repaired.
 *
 * Flow: anim_fix_apply (plan + patch in memory), then either report only
 * (dry run) or anim_fix_write, then anim_fix_format for the stdout lines. */
#ifndef ANIMSMITH_REPAIR_H
#define ANIMSMITH_REPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/error.h"
#include "animsmith/gltf.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Stable repair ids, in the default order. */
typedef enum {
    ANIM_REPAIR_QUAT_NORM = 0, /* "quat-norm": unit-normalize non-unit keys */
    ANIM_REPAIR_QUAT_FLIP = 1  /* "quat-flip": hemisphere-chain the keys */
} anim_repair_id;

enum { ANIM_REPAIR_COUNT = 2 };

/* "quat-norm" / "quat-flip". */
const char *anim_repair_name(anim_repair_id id);

/* Exact id lookup; 0 or -1 (unknown). */
int anim_repair_parse(const char *name, anim_repair_id *out);

/* Appends the comma-separated ids of csv to ids[*count] (capacity
 * ANIM_REPAIR_COUNT), dropping duplicates and keeping the first
 * occurrence. Returns 0, or -1 with ANIM_ERR_USAGE naming the bad id. */
int anim_repair_parse_list(const char *csv, anim_repair_id *ids, uint32_t *count,
                           anim_error *err);

/* One repaired track of one pass. Labels are the authored names, or
 * "<unnamed>" (not the loader's "animationN" naming). */
typedef struct anim_fix_track {
    const char *clip;
    const char *bone;
    uint32_t clip_index;   /* into asset->doc.clips */
    uint32_t track_index;  /* into that clip's tracks */
    uint32_t keys;         /* keys changed by this pass */
} anim_fix_track;

/* A rotation track a pass could not (fully) repair byte-surgically. */
typedef struct anim_fix_skip {
    const char *clip;
    const char *bone;
    uint32_t clip_index;
    uint32_t track_index;
    const char *reason;    /* spec 8.2/8.3 wording, e.g. "sparse accessor" */
} anim_fix_skip;

typedef struct anim_fix_pass {
    anim_repair_id id;
    anim_fix_track *tracks;  /* tracks with >= 1 changed key, file order */
    uint32_t track_count;
    anim_fix_skip *skips;    /* file order */
    uint32_t skip_count;
    uint64_t keys;           /* sum of tracks[].keys */
} anim_fix_pass;

typedef struct anim_fix {
    anim_arena *arena;          /* owns everything below */
    const anim_asset *asset;    /* borrowed; must outlive the fix */
    anim_fix_pass passes[ANIM_REPAIR_COUNT];
    uint32_t pass_count;
    /* Patched copy of each buffer (data_length bytes), NULL for data-URI
     * buffers, which are never patched. */
    uint8_t **buffers;
    bool *buffer_changed;
    uint32_t buffer_count;
    uint64_t keys;              /* over all passes */
} anim_fix;

/* Runs the repairs ids[0..count) in that order on copies of the asset's
 * buffers. The asset itself is not modified. NULL on failure (memory). */
anim_fix *anim_fix_apply(const anim_asset *asset, const anim_repair_id *ids, uint32_t count,
                         anim_error *err);

void anim_fix_free(anim_fix *fix);

/* True when some pass changed at least one key (what --dry-run exits 1
 * for). Skipped tracks never make a repair pending. */
bool anim_fix_pending(const anim_fix *fix);

/* Checks that writing to out_path can succeed without harming the input:
 * the output must not be the input file (unless in_place), must keep the
 * input's container extension, and no external buffer written beside the
 * output may land on one of the input's own buffer files (unless
 * in_place). Returns 0 or -1 with ANIM_ERR_USAGE / ANIM_ERR_IO. Nothing is
 * written. anim_fix_write calls it first. */
int anim_fix_check_destination(const anim_fix *fix, const char *out_path, bool in_place,
                               anim_error *err);

/* Writes the repaired asset (spec 8.5). GLB: the input file with the BIN
 * chunk's payload replaced by the patched copy. .gltf: the JSON copied
 * byte-for-byte (not rewritten in place). Every external buffer is written
 * beside out_path under its URI (in place: only the changed ones). Each
 * file goes through the atomic writer, buffers before the file naming
 * them; on a refusal nothing is written. in_place requires out_path to be
 * the input path. Returns 0 or -1. */
int anim_fix_write(const anim_fix *fix, const char *out_path, bool in_place, anim_error *err);

/* The stdout lines of spec 8.6, every pass in order: per repaired track,
 * per skipped track, then the summary. destination NULL = dry run
 * ("would fix", "-> no output written"). Names are terminal-escaped. */
void anim_fix_format(const anim_fix *fix, const char *destination, anim_strbuf *out);

#ifdef __cplusplus
}
#endif
#endif
