/* SHA-256 through OpenSSL's libcrypto (a Debian package), not our own:
 * a digest is only evidence if it is the standard one. */
#include "animsmith/hash.h"

#include <openssl/evp.h>

void anim_sha256(const void *data, size_t len, uint8_t out[32])
{
    unsigned int n = 32;
    EVP_Digest(data, len, out, &n, EVP_sha256(), NULL);
}

void anim_sha256_hex(const void *data, size_t len, char out[65])
{
    static const char hex[] = "0123456789abcdef";
    uint8_t d[32];
    anim_sha256(data, len, d);
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[64] = '\0';
}
