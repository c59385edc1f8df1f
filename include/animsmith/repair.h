/* `fix`: lossless, byte-surgical quaternion repairs.
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
    const char *reason;    /* fixed wording, e.g. "sparse accessor" */
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
 * no file written (the output, or an external buffer written beside it)
 * may be one of the input's own files (anim_asset_resources: the file,
 * its external buffers, its image files), compared by device and inode so
 * every spelling and link is caught; in place, only the input itself and
 * each buffer's own file may be rewritten. The output must keep the
 * input's container extension. Returns 0 or -1 with ANIM_ERR_USAGE /
 * ANIM_ERR_IO. Nothing is written. anim_fix_write calls it first. */
int anim_fix_check_destination(const anim_fix *fix, const char *out_path, bool in_place,
                               anim_error *err);

/* Writes the repaired asset. GLB: the input file with the BIN
 * chunk's payload replaced by the patched copy. .gltf: the JSON copied
 * byte-for-byte (not rewritten in place). Every external buffer is written
 * beside out_path under its URI (in place: only the changed ones). Each
 * file goes through the atomic writer, buffers before the file naming
 * them; on a refusal nothing is written. in_place requires out_path to be
 * the input path. Returns 0 or -1. */
int anim_fix_write(const anim_fix *fix, const char *out_path, bool in_place, anim_error *err);

/* Rotation tracks changed by at least one pass, each counted once. */
uint32_t anim_fix_track_count(const anim_fix *fix);

/* Whether anim_fix_write writes any file: always for a new output (the
 * repaired copy), in place only when some key changed. */
bool anim_fix_writes(const anim_fix *fix, bool in_place);

/* The stdout lines: every pass in order, one line per repaired track and
 * per skipped track, then ONE summary line for the run ("N key(s) fixed
 * across M track(s) -> FILE"). dry_run words it "would fix" / "would be
 * fixed"; written is the file written, or NULL ("-> no output written",
 * also for every dry run). Names are terminal-escaped. */
void anim_fix_format(const anim_fix *fix, bool dry_run, const char *written, anim_strbuf *out);

#ifdef __cplusplus
}
#endif
#endif
