/* The model operation test fixture (model_op_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "support/model_op_fixture.h"

static void result_clear(mdl_result *r)
{
    free(r->faces);
    free(r->vertices);
    for (uint32_t i = 0; i < r->note_count; i++)
        free(r->notes[i]);
    memset(r, 0, sizeof *r);
}

int fx_setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->doc = mdl_doc_new();
    assert_non_null(f->doc);
    anim_model_limits_default(&f->limits);
    f->arena = anim_arena_new();
    assert_non_null(f->arena);
    *state = f;
    return 0;
}

int fx_teardown(void **state)
{
    fx *f = *state;
    result_clear(&f->res);
    mdl_doc_free(f->doc);
    anim_arena_free(f->arena);
    free(f);
    return 0;
}

int fx_run(fx *f, const char *json)
{
    anim_error err;
    anim_json_value *op = anim_json_parse(f->arena, json, strlen(json), NULL, &err);
    if (!op) {
        print_error("bad test JSON: %s\n%s\n", err.message, json);
        fail();
    }
    result_clear(&f->res);
    memset(&f->ctx, 0, sizeof f->ctx);
    f->ctx.doc = f->doc;
    f->ctx.limits = &f->limits;
    f->ctx.result = &f->res;
    f->ctx.work_budget = f->budget ? f->budget : f->limits.max_work_units;
    const anim_json_value *name = anim_json_get(op, "op");
    assert_non_null(name);
    f->ctx.op = anim_json_string(name);
    if (mdl_validate_op(&f->ctx, op) != 0)
        return -1;
    const mdl_op_def *def = mdl_op_find(anim_json_string(name), anim_json_string_len(name));
    assert_non_null(def);
    int rc = def->run(&f->ctx, op);
    if (rc == 0)
        assert_true(f->ctx.work > 0);
    return rc;
}

void fx_ok(fx *f, const char *json)
{
    if (fx_run(f, json) != 0) {
        print_error("refused (%s): %s\n%s\n", f->ctx.refusal_kind ? f->ctx.refusal_kind : "?",
                    f->ctx.refusal, json);
        fail();
    }
}

void fx_refused(fx *f, const char *json, const char *kind, const char *want)
{
    if (fx_run(f, json) == 0) {
        print_error("accepted: %s\n", json);
        fail();
    }
    assert_non_null(f->ctx.refusal_kind);
    if (strcmp(f->ctx.refusal_kind, kind) != 0) {
        print_error("kind %s (%s), wanted %s\n", f->ctx.refusal_kind, f->ctx.refusal, kind);
        fail();
    }
    if (want && !strstr(f->ctx.refusal, want)) {
        print_error("message \"%s\" lacks \"%s\"\n", f->ctx.refusal, want);
        fail();
    }
}

void fx_near(double a, double b, double eps)
{
    if (!(fabs(a - b) <= eps)) {
        print_error("%.17g != %.17g (eps %g)\n", a, b, eps);
        fail();
    }
}
