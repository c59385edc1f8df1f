/* Base64 (include/animsmith/base64.h), which carries every binary stream
 * of the HTML report: the RFC 4648 section 10 vectors both ways, encoded
 * lengths, round trips of pseudo-random bytes of every length 0..100, and
 * the decoder's refusals (a length that is not a multiple of four, a
 * character outside the alphabet, padding anywhere but the end). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "animsmith/base64.h"
#include "animsmith/strbuf.h"

static const struct {
    const char *plain, *encoded;
} vectors[] = {
    {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},       {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
};

static void test_rfc4648_encode(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof vectors / sizeof *vectors; i++) {
        anim_strbuf sb = ANIM_STRBUF_INIT;
        anim_base64_append(&sb, vectors[i].plain, strlen(vectors[i].plain));
        assert_false(sb.failed);
        assert_int_equal(sb.len, strlen(vectors[i].encoded));
        assert_memory_equal(sb.len ? sb.data : "", vectors[i].encoded, sb.len);
        size_t len = 0;
        assert_true(anim_base64_encoded_len(strlen(vectors[i].plain), &len));
        assert_int_equal(len, strlen(vectors[i].encoded));
        anim_strbuf_free(&sb);
    }
}

static void test_rfc4648_decode(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof vectors / sizeof *vectors; i++) {
        const char *enc = vectors[i].encoded;
        uint8_t out[8];
        memset(out, 0xAA, sizeof out);
        long long n = anim_base64_decode(enc, strlen(enc), out);
        assert_int_equal(n, (long long)strlen(vectors[i].plain));
        assert_memory_equal(out, vectors[i].plain, (size_t)n);
        /* Nothing is written past the decoded bytes. */
        for (size_t k = (size_t)n; k < sizeof out; k++)
            assert_int_equal(out[k], 0xAA);
    }
}

/* A fixed xorshift stream: the same bytes on every run. */
static uint32_t next_random(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void test_round_trips(void **state)
{
    (void)state;
    uint32_t seed = 0x9E3779B9u;
    for (size_t n = 0; n <= 100; n++) {
        uint8_t data[100];
        for (size_t i = 0; i < n; i++)
            data[i] = (uint8_t)(next_random(&seed) >> 24);
        anim_strbuf sb = ANIM_STRBUF_INIT;
        anim_base64_append(&sb, data, n);
        assert_false(sb.failed);
        size_t want = 0;
        assert_true(anim_base64_encoded_len(n, &want));
        assert_int_equal(sb.len, want);
        assert_int_equal(sb.len % 4, 0);
        /* Exactly the room the header asks for: len / 4 * 3 bytes. */
        size_t room = sb.len / 4 * 3;
        uint8_t *out = test_malloc(room ? room : 1);
        long long got = anim_base64_decode(sb.len ? sb.data : "", sb.len, out);
        assert_int_equal(got, (long long)n);
        if (n)
            assert_memory_equal(out, data, n);
        test_free(out);
        anim_strbuf_free(&sb);
    }
}

static void test_encoded_len_overflow(void **state)
{
    (void)state;
    size_t len = 0;
    assert_false(anim_base64_encoded_len(SIZE_MAX, &len));
    assert_false(anim_base64_encoded_len(SIZE_MAX / 4 * 3 + 3, &len));
    /* The largest input whose encoding still fits. */
    assert_true(anim_base64_encoded_len(SIZE_MAX / 4 * 3, &len));
    assert_int_equal(len, SIZE_MAX / 4 * 4);
    assert_true(anim_base64_encoded_len(3, &len));
    assert_int_equal(len, 4);
}

static void test_decode_refusals(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "Zg=",      /* length not a multiple of four */
        "Zm9vY",    /* likewise */
        "Z",        /* likewise */
        "Zm9v!mFy", /* a character outside the alphabet */
        "Zm9v Zg=", /* a space */
        "Zm-v",     /* the URL-safe alphabet is not this one */
        "Zm_v",
        "Zg==Zm9v", /* padding before the last quad */
        "Zm=v",     /* padding inside a quad */
        "Z===",     /* three padding characters */
        "====",
        "=Zm9",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint8_t out[16];
        assert_int_equal(anim_base64_decode(bad[i], strlen(bad[i]), out), -1);
    }
    /* The length decides, not the text: a valid quad cut short is refused
     * even when the bytes after the cut would complete it. */
    uint8_t cut[8];
    for (size_t len = 1; len < 8; len++)
        if (len % 4)
            assert_int_equal(anim_base64_decode("Zm9vYmFy", len, cut), -1);
    /* A NUL inside the length is a foreign character too. */
    uint8_t out[8];
    assert_int_equal(anim_base64_decode("Zm9\0", 4, out), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc4648_encode),
        cmocka_unit_test(test_rfc4648_decode),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_encoded_len_overflow),
        cmocka_unit_test(test_decode_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
