/* Bevy 0.19.0's AnimationTargetId for a name path, reproduced.
 *
 * Bevy derives the id of an animation target from the names on its path:
 * BLAKE3 over the 16 bytes of its animation-target namespace UUID
 * (3179f519-d927-4ff2-b596-6fd077023911), then for each name its byte length
 * as a little-endian `usize` followed by its bytes; the first 16 output
 * bytes become a UUID with the version-5 and RFC 4122 variant bits set (the
 * UUID builder it uses for SHA-1-style name UUIDs). Because the length is a
 * `usize`, the id depends on the target's pointer width: the caller names
 * it (4 or 8 bytes); the host's width is never assumed. */
#ifndef ANIMSMITH_GENERATE_BEVY_TARGET_ID_H
#define ANIMSMITH_GENERATE_BEVY_TARGET_ID_H

#include <stddef.h>
#include <stdint.h>

/* The bounds of one reproducible path (as the rich addressability report
 * keeps them): a name is at most 1,024 bytes, the slash-joined path at most
 * 4,096 bytes, at most 256 names. */
#define ANIM_BEVY_PATH_MAX_SEGMENT_BYTES 1024u
#define ANIM_BEVY_PATH_MAX_BYTES 4096u
#define ANIM_BEVY_PATH_MAX_SEGMENTS 256u

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" plus the NUL. */
#define ANIM_BEVY_TARGET_ID_TEXT 37u

typedef enum {
    ANIM_BEVY_ID_OK = 0,
    ANIM_BEVY_ID_TOO_MANY_SEGMENTS,
    ANIM_BEVY_ID_SEGMENT_TOO_LONG,
    ANIM_BEVY_ID_PATH_TOO_LONG,
    ANIM_BEVY_ID_BAD_WIDTH
} anim_bevy_id_status;

/* The byte length of the slash-joined path of count segments (names and
 * "/" separators), for the path bound. */
size_t anim_bevy_path_bytes(const size_t *lens, size_t count);

/* The 16 id bytes for segments[i] (lens[i] bytes each, which may hold NUL)
 * hashed with pointer_bytes-wide lengths (4 or 8). Checks the path bounds
 * first and writes nothing on failure. */
anim_bevy_id_status anim_bevy_target_id(const char *const *segments, const size_t *lens,
                                        size_t count, unsigned pointer_bytes, uint8_t out[16]);

/* The lowercase hyphenated spelling Bevy displays. */
void anim_bevy_uuid_text(const uint8_t id[16], char out[ANIM_BEVY_TARGET_ID_TEXT]);

#endif
