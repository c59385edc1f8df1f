/* The fixture of the model operation tests: one document, one operation
 * at a time through the generic validator and the operation's run, with
 * its refusal kind and message checked. Include after <cmocka.h> and its
 * prerequisites. */
#ifndef ANIMSMITH_MODEL_OP_FIXTURE_H
#define ANIMSMITH_MODEL_OP_FIXTURE_H

#include <stdint.h>

#include "animsmith/arena.h"
#include "animsmith/model.h"
#include "model/mdl_doc.h"
#include "model/mdl_ops.h"

typedef struct fx {
    mdl_doc *doc;
    anim_model_limits limits;
    anim_arena *arena;
    mdl_result res;
    mdl_ctx ctx;
    uint64_t budget; /* 0: the default work limit */
} fx;

/* cmocka group or test setup / teardown: *state becomes an fx. */
int fx_setup(void **state);
int fx_teardown(void **state);
/* Validates and runs one operation (JSON text) on f->doc; its status. An
 * accepted operation must have spent work. */
int fx_run(fx *f, const char *json);
/* Fails the test unless the operation is accepted. */
void fx_ok(fx *f, const char *json);
/* Fails the test unless the operation is refused with kind and, when
 * want is not NULL, a message containing want. */
void fx_refused(fx *f, const char *json, const char *kind, const char *want);
/* Fails the test unless |a - b| <= eps. */
void fx_near(double a, double b, double eps);

#endif
