/* The V1 advice identity: one digest a consumer can compare to know two
 * documents make the same claim about the same evidence, whatever build
 * of the tool wrote them. It covers the embedded provenance, the
 * lifecycle, the clip rows and the importer payload; the tool block and
 * the top-level input member are outside it (the provenance binds the
 * file's content: its primary identity and dependency closure).
 *
 * Encoding (docs/import-advice.md): SHA-256 of the ASCII domain tag
 * ANIM_ADVICE_IDENTITY_DOMAIN, one NUL byte, then each of the four parts
 * in order as an 8-byte big-endian byte length followed by its bytes. The
 * parts are compact JSON (no whitespace, members in document order,
 * numbers in shortest round-trip form) of: the prediction_provenance
 * object; {"state"[,"refusal_reason"]}; the clips array; the importer
 * value (object or null). The domain tag keeps this digest from ever
 * equalling another contract's over the same bytes, and the lengths keep
 * a byte moved from one part to the next from giving the same input. */
#include <string.h>

#include "animsmith/hash.h"
#include "generate/import_advice.h"

void anim_advice_identity_digest(const anim_strbuf parts[4], char out[72])
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_strbuf_append(&sb, ANIM_ADVICE_IDENTITY_DOMAIN, sizeof ANIM_ADVICE_IDENTITY_DOMAIN);
    for (int i = 0; i < 4; i++) {
        uint64_t n = parts[i].len;
        unsigned char len[8];
        for (int b = 0; b < 8; b++)
            len[b] = (unsigned char)(n >> (56 - 8 * b));
        anim_strbuf_append(&sb, len, sizeof len);
        if (n)
            anim_strbuf_append(&sb, parts[i].data, parts[i].len);
    }
    char hex[65];
    if (sb.failed) {
        out[0] = '\0';
    } else {
        anim_sha256_hex(sb.data ? sb.data : "", sb.len, hex);
        memcpy(out, "sha256:", 7);
        memcpy(out + 7, hex, 65);
    }
    anim_strbuf_free(&sb);
}

int anim_import_advice_identify(anim_import_advice *advice, anim_error *err)
{
    anim_strbuf parts[4] = {ANIM_STRBUF_INIT, ANIM_STRBUF_INIT, ANIM_STRBUF_INIT,
                            ANIM_STRBUF_INIT};
    int rc = anim_import_advice_identity_parts(advice, parts, err);
    if (rc == 0) {
        anim_advice_identity_digest(parts, advice->identity);
        if (!advice->identity[0])
            rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory while writing the identity");
    }
    for (int i = 0; i < 4; i++)
        anim_strbuf_free(&parts[i]);
    return rc;
}
