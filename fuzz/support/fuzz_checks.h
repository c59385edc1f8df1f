/* Properties the fuzz targets require of what the library writes; each
 * traps (a crash libFuzzer reports) when one does not hold. */
#ifndef ANIMSMITH_FUZZ_CHECKS_H
#define ANIMSMITH_FUZZ_CHECKS_H

#include "animsmith/meshq.h"
#include "animsmith/strbuf.h"

/* out, when it was written whole, is the JSON it claims to be. */
void fuzz_require_json(const anim_strbuf *out);

/* Every mesh-quality row lands in exactly one outcome class. */
void fuzz_require_outcome(const anim_mq_outcome *o);

#endif
