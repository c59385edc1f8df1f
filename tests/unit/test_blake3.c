/* BLAKE3 (src/generate/blake3.c) against the official BLAKE3 test vectors:
 * inputs of the listed lengths filled with i % 251, each checked over the
 * vectors' full 131-byte extended output and over the 32-byte digest; the
 * same digests fed in pieces of every awkward size (1, 63, 64, 65, 1023,
 * 1024, 1025 bytes) and with a repeated finalize. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate/blake3.h"

/* The "hash" field of the official test_vectors.json. */
static const struct {
    size_t len;
    const char *hex;
} vectors[] = {
    {0,
     "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262e00f03e7b69af26b7faaf09f"
     "cd333050338ddfe085b8cc869ca98b206c08243a26f5487789e8f660afe6c99ef9e0c52b92e7393024a80459"
     "cf91f476f9ffdbda7001c22e159b402631f277ca96f2defdf1078282314e763699a31c5363165421cce14d"},
    {1,
     "2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213c3a6cb8bf623e20cdb535f8d"
     "1a5ffb86342d9c0b64aca3bce1d31f60adfa137b358ad4d79f97b47c3d5e79f179df87a3b9776ef8325f8329"
     "886ba42f07fb138bb502f4081cbcec3195c5871e6c23e2cc97d3c69a613eba131e5f1351f3f1da786545e5"},
    {1023,
     "10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11a182d27a591b05592b156075"
     "00e1e8dd56bc6c7fc063715b7a1d737df5bad3339c56778957d870eb9717b57ea3d9fb68d1b55127bba6a906"
     "a4a24bbd5acb2d123a37b28f9e9a81bbaae360d58f85e5fc9d75f7c370a0cc09b6522d9c8d822f2f28f485"},
    {1024,
     "42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af71cf8107265ecdaf8505b95d8"
     "fcec83a98a6a96ea5109d2c179c47a387ffbb404756f6eeae7883b446b70ebb144527c2075ab8ab204c0086b"
     "b22b7c93d465efc57f8d917f0b385c6df265e77003b85102967486ed57db5c5ca170ba441427ed9afa684e"},
    {1025,
     "d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444f4c4a22b4b399155358a994e"
     "52bf255de60035742ec71bd08ac275a1b51cc6bfe332b0ef84b409108cda080e6269ed4b3e2c3f7d722aa4cd"
     "c98d16deb554e5627be8f955c98e1d5f9565a9194cad0c4285f93700062d9595adb992ae68ff12800ab67a"},
    {2048,
     "e776b6028c7cd22a4d0ba182a8bf62205d2ef576467e838ed6f2529b85fba24a9a60bf80001410ec9eea6698"
     "cd537939fad4749edd484cb541aced55cd9bf54764d063f23f6f1e32e12958ba5cfeb1bf618ad094266d4fc3"
     "c968c2088f677454c288c67ba0dba337b9d91c7e1ba586dc9a5bc2d5e90c14f53a8863ac75655461cea8f9"},
    {2049,
     "5f4d72f40d7a5f82b15ca2b2e44b1de3c2ef86c426c95c1af0b687952256303096de31d71d74103403822a2e"
     "0bc1eb193e7aecc9643a76b7bbc0c9f9c52e8783aae98764ca468962b5c2ec92f0c74eb5448d519713e09413"
     "719431c802f948dd5d90425a4ecdadece9eb178d80f26efccae630734dff63340285adec2aed3b51073ad3"},
    {3072,
     "b98cb0ff3623be03326b373de6b9095218513e64f1ee2edd2525c7ad1e5cffd29a3f6b0b978d6608335c09dc"
     "94ccf682f9951cdfc501bfe47b9c9189a6fc7b404d120258506341a6d802857322fbd20d3e5dae05b95c8879"
     "3fa83db1cb08e7d8008d1599b6209d78336e24839724c191b2a52a80448306e0daa84a3fdb566661a37e11"},
    {3073,
     "7124b49501012f81cc7f11ca069ec9226cecb8a2c850cfe644e327d22d3e1cd39a27ae3b79d68d89da9bf25b"
     "c27139ae65a324918a5f9b7828181e52cf373c84f35b639b7fccbb985b6f2fa56aea0c18f531203497b8bbd3"
     "a07ceb5926f1cab74d14bd66486d9a91eba99059a98bd1cd25876b2af5a76c3e9eed554ed72ea952b603bf"},
    {4096,
     "015094013f57a5277b59d8475c0501042c0b642e531b0a1c8f58d2163229e9690289e9409ddb1b99768eafe1"
     "623da896faf7e1114bebeadc1be30829b6f8af707d85c298f4f0ff4d9438aef948335612ae921e76d411c3a9"
     "111df62d27eaf871959ae0062b5492a0feb98ef3ed4af277f5395172dbe5c311918ea0074ce0036454f620"},
    {4097,
     "9b4052b38f1c5fc8b1f9ff7ac7b27cd242487b3d890d15c96a1c25b8aa0fb99505f91b0b5600a11251652eac"
     "fa9497b31cd3c409ce2e45cfe6c0a016967316c426bd26f619eab5d70af9a418b845c608840390f361630bd4"
     "97b1ab44019316357c61dbe091ce72fc16dc340ac3d6e009e050b3adac4b5b2c92e722cffdc46501531956"},
    {5120,
     "9cadc15fed8b5d854562b26a9536d9707cadeda9b143978f319ab34230535833acc61c8fdc114a2010ce8038"
     "c853e121e1544985133fccdd0a2d507e8e615e611e9a0ba4f47915f49e53d721816a9198e8b30f12d20ec368"
     "9989175f1bf7a300eee0d9321fad8da232ece6efb8e9fd81b42ad161f6b9550a069e66b11b40487a5f5059"},
    {31744,
     "62b6960e1a44bcc1eb1a611a8d6235b6b4b78f32e7abc4fb4c6cdcce94895c47860cc51f2b0c28a7b77304bd"
     "55fe73af663c02d3f52ea053ba43431ca5bab7bfea2f5e9d7121770d88f70ae9649ea713087d1914f7f31214"
     "7e247f87eb2d4ffef0ac978bf7b6579d57d533355aa20b8b77b13fd09748728a5cc327a8ec470f4013226f"},
    {102400,
     "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085e01c59dab908c04c3342b816"
     "941a26d69c2605ebee5ec5291cc55e15b76146e6745f0601156c3596cb75065a9c57f35585a52e1ac70f6913"
     "1c23d611ce11ee4ab1ec2c009012d236648e77be9295dd0426f29b764d65de58eb7d01dd42248204f45f8e"},
};
#define VECTOR_COUNT (sizeof vectors / sizeof *vectors)
#define XOF_LEN 131

static uint8_t *vector_input(size_t len)
{
    uint8_t *in = malloc(len ? len : 1);
    assert_non_null(in);
    for (size_t i = 0; i < len; i++)
        in[i] = (uint8_t)(i % 251);
    return in;
}

static void to_hex(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static void test_official_vectors_extended_output(void **state)
{
    (void)state;
    for (size_t v = 0; v < VECTOR_COUNT; v++) {
        uint8_t *in = vector_input(vectors[v].len);
        anim_blake3 h;
        anim_blake3_init(&h);
        anim_blake3_update(&h, in, vectors[v].len);
        uint8_t out[XOF_LEN];
        anim_blake3_finalize(&h, out, sizeof out);
        char hex[2 * XOF_LEN + 1];
        to_hex(out, sizeof out, hex);
        if (strcmp(hex, vectors[v].hex) != 0)
            fail_msg("length %zu: got %s", vectors[v].len, hex);
        free(in);
    }
}

static void test_official_vectors_digest(void **state)
{
    (void)state;
    for (size_t v = 0; v < VECTOR_COUNT; v++) {
        uint8_t *in = vector_input(vectors[v].len);
        uint8_t out[ANIM_BLAKE3_OUT_LEN];
        anim_blake3_hash(in, vectors[v].len, out);
        char hex[2 * ANIM_BLAKE3_OUT_LEN + 1];
        to_hex(out, sizeof out, hex);
        if (strncmp(hex, vectors[v].hex, 2 * ANIM_BLAKE3_OUT_LEN) != 0)
            fail_msg("length %zu: got %s", vectors[v].len, hex);
        free(in);
    }
}

static void test_incremental_pieces(void **state)
{
    (void)state;
    static const size_t pieces[] = {1, 63, 64, 65, 1023, 1024, 1025};
    for (size_t v = 0; v < VECTOR_COUNT; v++) {
        size_t len = vectors[v].len;
        uint8_t *in = vector_input(len);
        uint8_t whole[ANIM_BLAKE3_OUT_LEN];
        anim_blake3_hash(in, len, whole);
        for (size_t p = 0; p < sizeof pieces / sizeof *pieces; p++) {
            anim_blake3 h;
            anim_blake3_init(&h);
            for (size_t at = 0; at < len; at += pieces[p])
                anim_blake3_update(&h, in + at, len - at < pieces[p] ? len - at : pieces[p]);
            uint8_t got[ANIM_BLAKE3_OUT_LEN];
            anim_blake3_finalize(&h, got, sizeof got);
            if (memcmp(got, whole, sizeof got) != 0)
                fail_msg("length %zu in pieces of %zu differs", len, pieces[p]);
        }
        free(in);
    }
}

static void test_finalize_keeps_state(void **state)
{
    (void)state;
    uint8_t *in = vector_input(2049);
    anim_blake3 h;
    anim_blake3_init(&h);
    anim_blake3_update(&h, in, 1025);
    uint8_t first[ANIM_BLAKE3_OUT_LEN], again[ANIM_BLAKE3_OUT_LEN];
    anim_blake3_finalize(&h, first, sizeof first);
    anim_blake3_finalize(&h, again, sizeof again);
    assert_memory_equal(first, again, sizeof first);
    /* Updating on after a finalize continues the same input. */
    anim_blake3_update(&h, in + 1025, 2049 - 1025);
    uint8_t got[ANIM_BLAKE3_OUT_LEN], want[ANIM_BLAKE3_OUT_LEN];
    anim_blake3_finalize(&h, got, sizeof got);
    anim_blake3_hash(in, 2049, want);
    assert_memory_equal(got, want, sizeof got);
    free(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_official_vectors_extended_output),
        cmocka_unit_test(test_official_vectors_digest),
        cmocka_unit_test(test_incremental_pieces),
        cmocka_unit_test(test_finalize_keeps_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
