/* SHA-256 through OpenSSL's libcrypto (a Debian package), not our own:
 * a digest is only evidence if it is the standard one. */
#include "animsmith/hash.h"

#include <stdio.h>

#include <openssl/evp.h>

void anim_sha256(const void *data, size_t len, uint8_t out[32])
{
    unsigned int n = 32;
    EVP_Digest(data, len, out, &n, EVP_sha256(), NULL);
}

static void to_hex(const uint8_t d[32], char out[65])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[64] = '\0';
}

void anim_sha256_hex(const void *data, size_t len, char out[65])
{
    uint8_t d[32];
    anim_sha256(data, len, d);
    to_hex(d, out);
}

int anim_sha256_file_hex(const char *path, uint64_t max_bytes, char out[65], uint64_t *bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int rc = ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) ? 0 : -1;
    unsigned char buf[65536];
    uint64_t total = 0;
    size_t got;
    while (rc == 0 && (got = fread(buf, 1, sizeof buf, f)) > 0) {
        total += got;
        if (total > max_bytes || !EVP_DigestUpdate(ctx, buf, got))
            rc = -1;
    }
    if (ferror(f))
        rc = -1;
    uint8_t d[32];
    unsigned int n = 32;
    if (rc == 0 && !EVP_DigestFinal_ex(ctx, d, &n))
        rc = -1;
    EVP_MD_CTX_free(ctx);
    fclose(f);
    if (rc == 0) {
        to_hex(d, out);
        *bytes = total;
    }
    return rc;
}
