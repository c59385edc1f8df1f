/* Bevy's AnimationTargetId preimage and UUID shaping (see the header). */
#include "generate/bevy_target_id.h"

#include "generate/blake3.h"

/* bevy_animation's ANIMATION_TARGET_NAMESPACE, as its 16 big-endian bytes. */
static const uint8_t NAMESPACE[16] = {0x31, 0x79, 0xf5, 0x19, 0xd9, 0x27, 0x4f, 0xf2,
                                      0xb5, 0x96, 0x6f, 0xd0, 0x77, 0x02, 0x39, 0x11};

size_t anim_bevy_path_bytes(const size_t *lens, size_t count)
{
    size_t total = count > 1 ? count - 1 : 0;
    for (size_t i = 0; i < count; i++)
        total += lens[i]; /* each is at most the segment bound when checked */
    return total;
}

anim_bevy_id_status anim_bevy_target_id(const char *const *segments, const size_t *lens,
                                        size_t count, unsigned pointer_bytes, uint8_t out[16])
{
    if (pointer_bytes != 4 && pointer_bytes != 8)
        return ANIM_BEVY_ID_BAD_WIDTH;
    if (count > ANIM_BEVY_PATH_MAX_SEGMENTS)
        return ANIM_BEVY_ID_TOO_MANY_SEGMENTS;
    for (size_t i = 0; i < count; i++)
        if (lens[i] > ANIM_BEVY_PATH_MAX_SEGMENT_BYTES)
            return ANIM_BEVY_ID_SEGMENT_TOO_LONG;
    if (anim_bevy_path_bytes(lens, count) > ANIM_BEVY_PATH_MAX_BYTES)
        return ANIM_BEVY_ID_PATH_TOO_LONG;
    anim_blake3 h;
    anim_blake3_init(&h);
    anim_blake3_update(&h, NAMESPACE, sizeof NAMESPACE);
    for (size_t i = 0; i < count; i++) {
        /* usize::to_le_bytes at the target's width (the bound keeps every
         * length far below 2^32, so the 4-byte form never truncates). */
        uint8_t len_le[8] = {0};
        uint64_t n = lens[i];
        for (unsigned b = 0; b < pointer_bytes; b++)
            len_le[b] = (uint8_t)(n >> (8 * b));
        anim_blake3_update(&h, len_le, pointer_bytes);
        anim_blake3_update(&h, segments[i], lens[i]);
    }
    uint8_t digest[16];
    anim_blake3_finalize(&h, digest, sizeof digest);
    for (int i = 0; i < 16; i++)
        out[i] = digest[i];
    out[6] = (uint8_t)((out[6] & 0x0f) | 0x50); /* version 5 */
    out[8] = (uint8_t)((out[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    return ANIM_BEVY_ID_OK;
}

void anim_bevy_uuid_text(const uint8_t id[16], char out[ANIM_BEVY_TARGET_ID_TEXT])
{
    static const char hex[] = "0123456789abcdef";
    size_t at = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[at++] = '-';
        out[at++] = hex[id[i] >> 4];
        out[at++] = hex[id[i] & 15];
    }
    out[at] = '\0';
}
