/* libFuzzer entry for the flat (2-D) mesh-quality inputs: any byte string,
 * read as a `mesh-quality residual` request and as `mesh-quality envelope`
 * ranges, in both output forms, must be answered or refused with a
 * message. The request reader walks untrusted counts (points, UV pairs,
 * triangle indices, hull, art mask, weights), so ASan sees any index past
 * what the file declared.
 *
 * What a run yields is checked too: every row lands in exactly one outcome
 * class, a JSON report parses back as JSON, and the two forms agree on
 * whether the input is refused and on the outcome (they come from one
 * reading, so a difference is a bug in one writer). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "animsmith/error.h"
#include "animsmith/meshq.h"
#include "animsmith/strbuf.h"
#include "support/fuzz_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void residual(const char *text, size_t size)
{
    int rc[2];
    anim_mq_outcome oc[2];
    for (int json = 0; json < 2; json++) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_error err;
        anim_error_clear(&err);
        rc[json] = anim_mq_flat_residual(text, size, "fuzz.json", json == 1, ANIM_MQ_PLANT_NONE,
                                         &out, &oc[json], &err);
        if (rc[json] != 0) {
            if (err.message[0] == '\0')
                __builtin_trap(); /* every refusal says why */
        } else {
            fuzz_require_outcome(&oc[json]);
            if (json == 1)
                fuzz_require_json(&out);
        }
        anim_strbuf_free(&out);
    }
    if (rc[0] != rc[1] || (rc[0] == 0 && memcmp(&oc[0], &oc[1], sizeof oc[0]) != 0))
        __builtin_trap(); /* one reading, two writers: same verdict */
}

static void envelope(const char *text, size_t size)
{
    int rc[2];
    for (int json = 0; json < 2; json++) {
        anim_strbuf out = ANIM_STRBUF_INIT;
        anim_error err;
        anim_error_clear(&err);
        rc[json] = anim_mq_flat_envelope(text, size, "fuzz.json", json == 1,
                                         ANIM_MQ_ENVELOPE_PLANT_NONE, &out, &err);
        if (rc[json] != 0) {
            if (err.message[0] == '\0')
                __builtin_trap();
        } else if (json == 1) {
            fuzz_require_json(&out);
        }
        anim_strbuf_free(&out);
    }
    if (rc[0] != rc[1])
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    residual((const char *)data, size);
    envelope((const char *)data, size);
    return 0;
}
