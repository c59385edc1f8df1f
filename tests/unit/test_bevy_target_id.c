/* Bevy's AnimationTargetId (src/generate/bevy_target_id.c) for name paths
 * at both pointer widths. The expected ids were computed with the separate
 * Python implementation in tests/tools/blake3_reference.py (its own BLAKE3,
 * checked against the official vectors; `blake3_reference.py target-id 64
 * Root Hips GltfNode7`), which tests/scripts/bevy_target_id_reference.sh
 * re-runs against this file. The empty path does not depend on the width;
 * "ab"+"c" and "a"+"bc" differ because lengths are hashed; an empty name
 * and a name holding NUL are bytes like any other. Then the bounds: 1,024
 * bytes per name, 4,096 per slash-joined path, 256 names, width 4 or 8. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "generate/bevy_target_id.h"

typedef struct {
    const char *names[3];
    size_t lens[3];
    size_t count;
    const char *id32, *id64;
} id_case;

static const id_case cases[] = {
    {{NULL}, {0}, 0, "77da024c-dd93-5d43-8f9a-2af3d4b17c5b",
     "77da024c-dd93-5d43-8f9a-2af3d4b17c5b"},
    {{"Root"}, {4}, 1, "2514296d-dbd8-5ea8-a8cc-1fadaf961d2f",
     "05c24be8-bacd-5ee9-9a65-f8215983900e"},
    {{"Root", "Hips", "GltfNode7"}, {4, 4, 9}, 3, "15c3912b-7127-55c1-b5ff-83950e3d0f9a",
     "90fed833-c803-5800-883d-adee90aab446"},
    {{"ab", "c"}, {2, 1}, 2, "fd324118-d34f-53d0-9787-d5a1594985e7",
     "0d54b499-ea4e-5a49-afec-0a87e56da473"},
    {{"a", "bc"}, {1, 2}, 2, "2ceb26c6-8d62-53c7-b4c5-ee3b9b81784e",
     "c22eb6e6-9f59-509b-9cfc-79d424c0d445"},
    {{"Armature", "Hips", "Spine"}, {8, 4, 5}, 3, "8c5ebfed-f751-50fc-a2a7-f684e159ca08",
     "da23b82c-5d64-5296-9e2b-785085de9517"},
    {{""}, {0}, 1, "2008b769-a84b-5716-b44f-9d40ca01e950",
     "ea83f7ca-536c-5f62-bb2b-362d5f2cad69"},
    {{"a\0b", ""}, {3, 0}, 2, NULL, "092f1412-2934-58df-ac9c-21c265cb076a"},
};

static void check_id(const id_case *c, unsigned width, const char *want)
{
    uint8_t id[16];
    assert_int_equal(anim_bevy_target_id(c->names, c->lens, c->count, width, id),
                     ANIM_BEVY_ID_OK);
    char text[ANIM_BEVY_TARGET_ID_TEXT];
    anim_bevy_uuid_text(id, text);
    if (strcmp(text, want) != 0)
        fail_msg("%zu-name path at %u bytes: got %s, want %s", c->count, width, text, want);
    /* Version 5, RFC 4122 variant, always. */
    assert_int_equal(id[6] >> 4, 5);
    assert_int_equal(id[8] >> 6, 2);
}

static void test_reference_ids(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        if (cases[i].id32)
            check_id(&cases[i], 4, cases[i].id32);
        check_id(&cases[i], 8, cases[i].id64);
    }
}

static void test_segment_bound(void **state)
{
    (void)state;
    char *name = malloc(ANIM_BEVY_PATH_MAX_SEGMENT_BYTES + 1);
    assert_non_null(name);
    memset(name, 'x', ANIM_BEVY_PATH_MAX_SEGMENT_BYTES + 1);
    const char *names[1] = {name};
    size_t lens[1] = {ANIM_BEVY_PATH_MAX_SEGMENT_BYTES};
    uint8_t id[16];
    assert_int_equal(anim_bevy_target_id(names, lens, 1, 8, id), ANIM_BEVY_ID_OK);
    char text[ANIM_BEVY_TARGET_ID_TEXT];
    anim_bevy_uuid_text(id, text);
    /* blake3_reference.py target-id 64 followed by 1,024 x's. */
    assert_string_equal(text, "9ca5896e-2e60-55fb-8997-5d1779bd8a88");
    lens[0]++;
    assert_int_equal(anim_bevy_target_id(names, lens, 1, 8, id), ANIM_BEVY_ID_SEGMENT_TOO_LONG);
    free(name);
}

static void test_path_and_count_bounds(void **state)
{
    (void)state;
    static char block[ANIM_BEVY_PATH_MAX_SEGMENT_BYTES];
    memset(block, 'y', sizeof block);
    const char *names[ANIM_BEVY_PATH_MAX_SEGMENTS + 1];
    size_t lens[ANIM_BEVY_PATH_MAX_SEGMENTS + 1];
    uint8_t id[16];
    /* Four names of 1,023 bytes and three slashes: exactly 4,095 bytes. */
    for (int i = 0; i < 5; i++) {
        names[i] = block;
        lens[i] = 1023;
    }
    assert_int_equal(anim_bevy_path_bytes(lens, 4), 4095);
    assert_int_equal(anim_bevy_target_id(names, lens, 4, 4, id), ANIM_BEVY_ID_OK);
    lens[3] = 1024; /* 4,096: still inside */
    assert_int_equal(anim_bevy_target_id(names, lens, 4, 4, id), ANIM_BEVY_ID_OK);
    lens[0] = 1024; /* 4,097 */
    assert_int_equal(anim_bevy_target_id(names, lens, 4, 4, id), ANIM_BEVY_ID_PATH_TOO_LONG);
    /* 256 one-byte names fit (511 bytes); 257 do not. */
    for (size_t i = 0; i <= ANIM_BEVY_PATH_MAX_SEGMENTS; i++) {
        names[i] = block;
        lens[i] = 1;
    }
    assert_int_equal(anim_bevy_target_id(names, lens, ANIM_BEVY_PATH_MAX_SEGMENTS, 8, id),
                     ANIM_BEVY_ID_OK);
    assert_int_equal(anim_bevy_target_id(names, lens, ANIM_BEVY_PATH_MAX_SEGMENTS + 1, 8, id),
                     ANIM_BEVY_ID_TOO_MANY_SEGMENTS);
}

static void test_width_is_explicit(void **state)
{
    (void)state;
    const char *names[1] = {"Root"};
    size_t lens[1] = {4};
    uint8_t id[16];
    assert_int_equal(anim_bevy_target_id(names, lens, 1, 0, id), ANIM_BEVY_ID_BAD_WIDTH);
    assert_int_equal(anim_bevy_target_id(names, lens, 1, 2, id), ANIM_BEVY_ID_BAD_WIDTH);
    assert_int_equal(anim_bevy_target_id(names, lens, 1, 16, id), ANIM_BEVY_ID_BAD_WIDTH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_ids),
        cmocka_unit_test(test_segment_bound),
        cmocka_unit_test(test_path_and_count_bounds),
        cmocka_unit_test(test_width_is_explicit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
