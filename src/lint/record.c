/* Recording findings, evaluated scopes and coverage gaps into a check
 * record. Strings are copied into the run's arena so a check may format
 * into stack buffers. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/engine.h"
#include "animsmith/lint.h"
#include "lint/run_internal.h"

anim_value anim_value_number(double v)
{
    anim_value out = {ANIM_VALUE_NONE, 0.0, NULL};
    if (isfinite(v)) {
        out.kind = ANIM_VALUE_NUMBER;
        out.number = v;
    }
    return out;
}

anim_value anim_value_text(const char *s)
{
    anim_value out = {ANIM_VALUE_TEXT, 0.0, s};
    return out;
}

const char *anim_evaluation_name(anim_evaluation e)
{
    switch (e) {
    case ANIM_EVAL_COMPLETE: return "complete";
    case ANIM_EVAL_PARTIAL: return "partial";
    default: return "not_evaluated";
    }
}

/* Makes room in a record's heap array for n more items: doubling, or
 * exactly enough when that is more. The arrays are not in the arena: a
 * clip library can yield 10^5 findings, and arena copies would keep every
 * outgrown array alive until the result is freed. */
static void *reserve(void *items, uint32_t count, uint32_t n, uint32_t *cap, size_t elem)
{
    if (n <= *cap - count)
        return items;
    if (n > UINT32_MAX - count)
        return NULL;
    uint32_t need = count + n;
    uint32_t ncap = *cap == 0 ? 4 : *cap > UINT32_MAX / 2 ? UINT32_MAX : *cap * 2;
    if (ncap < need)
        ncap = need;
    size_t bytes;
    if (!anim_size_mul(ncap, elem, &bytes))
        return NULL;
    void *grown = realloc(items, bytes);
    if (grown)
        *cap = ncap;
    return grown;
}

static void *grow(void *items, uint32_t count, uint32_t *cap, size_t elem)
{
    return reserve(items, count, 1, cap, elem);
}

static const char *copy_or_null(anim_arena *arena, const char *s)
{
    return s ? anim_arena_strdup(arena, s) : NULL;
}

int anim_lint_record_append(anim_check_record *dst, const anim_check_record *src)
{
    /* All room first, so a failure leaves dst's contents as they were. */
    anim_finding *f = dst->findings;
    anim_scope *s = dst->scopes;
    anim_gap *g = dst->gaps;
    if (src->finding_count &&
        !(f = reserve(f, dst->finding_count, src->finding_count, &dst->finding_cap, sizeof *f)))
        return -1;
    dst->findings = f;
    if (src->scope_count &&
        !(s = reserve(s, dst->scope_count, src->scope_count, &dst->scope_cap, sizeof *s)))
        return -1;
    dst->scopes = s;
    if (src->gap_count &&
        !(g = reserve(g, dst->gap_count, src->gap_count, &dst->gap_cap, sizeof *g)))
        return -1;
    dst->gaps = g;
    if (src->finding_count)
        memcpy(f + dst->finding_count, src->findings, (size_t)src->finding_count * sizeof *f);
    if (src->scope_count)
        memcpy(s + dst->scope_count, src->scopes, (size_t)src->scope_count * sizeof *s);
    if (src->gap_count)
        memcpy(g + dst->gap_count, src->gaps, (size_t)src->gap_count * sizeof *g);
    dst->finding_count += src->finding_count;
    dst->scope_count += src->scope_count;
    dst->gap_count += src->gap_count;
    return 0;
}

void anim_lint_record_release(anim_check_record *rec)
{
    free(rec->findings);
    free(rec->scopes);
    free(rec->gaps);
    free(rec->facets);
    rec->facets = NULL;
    rec->facet_count = rec->facet_cap = 0;
    rec->findings = NULL;
    rec->scopes = NULL;
    rec->gaps = NULL;
    rec->finding_count = rec->finding_cap = 0;
    rec->scope_count = rec->scope_cap = 0;
    rec->gap_count = rec->gap_cap = 0;
}

/* s copied into the arena, or prev (already there) when equal: per-track
 * checks repeat the clip name, often the bone and the message. */
static const char *copy_or_share(anim_arena *arena, const char *s, const char *prev)
{
    if (s && prev && strcmp(s, prev) == 0)
        return prev;
    return copy_or_null(arena, s);
}

/* The formatted message in the arena, or prev when it reads the same. */
static const char *vformat(anim_arena *arena, const char *prev, const char *fmt, va_list ap)
{
    char local[256];
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(local, sizeof local, fmt, copy);
    va_end(copy);
    if (n < 0)
        return NULL;
    if ((size_t)n < sizeof local) {
        if (prev && strcmp(prev, local) == 0)
            return prev;
        return anim_arena_strndup(arena, local, (size_t)n);
    }
    char *p = anim_arena_alloc(arena, (size_t)n + 1);
    if (p)
        vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

int anim_check_finding(anim_lint_context *ctx, anim_check_record *rec,
                       const anim_finding_fields *f, const char *fmt, ...)
{
    anim_finding *items = grow(rec->findings, rec->finding_count, &rec->finding_cap,
                               sizeof *items);
    if (!items)
        return -1;
    rec->findings = items;
    const anim_finding *prev = rec->finding_count ? &items[rec->finding_count - 1] : NULL;
    anim_finding *out = &items[rec->finding_count];
    memset(out, 0, sizeof *out);
    out->check_id = rec->check_id;
    out->severity = f->severity;
    out->clip = copy_or_share(ctx->arena, f->clip, prev ? prev->clip : NULL);
    out->bone = copy_or_share(ctx->arena, f->bone, prev ? prev->bone : NULL);
    out->node = copy_or_share(ctx->arena, f->node, prev ? prev->node : NULL);
    out->has_time = f->has_time && isfinite(f->time_s);
    out->time_s = f->time_s;
    out->measured = f->measured;
    out->expected = f->expected;
    if (out->measured.kind == ANIM_VALUE_NUMBER && !isfinite(out->measured.number))
        out->measured.kind = ANIM_VALUE_NONE;
    if (out->expected.kind == ANIM_VALUE_NUMBER && !isfinite(out->expected.number))
        out->expected.kind = ANIM_VALUE_NONE;
    if (out->measured.kind == ANIM_VALUE_TEXT)
        out->measured.text = copy_or_null(ctx->arena, out->measured.text);
    if (out->expected.kind == ANIM_VALUE_TEXT)
        out->expected.text = copy_or_null(ctx->arena, out->expected.text);
    out->members = f->members;
    out->member_count = f->member_count;
    out->prediction_scope_code = copy_or_null(ctx->arena, f->prediction_scope_code);
    out->prediction_scope_subject = copy_or_null(ctx->arena, f->prediction_scope_subject);
    va_list ap;
    va_start(ap, fmt);
    out->message = vformat(ctx->arena, prev ? prev->message : NULL, fmt, ap);
    va_end(ap);
    if (!out->message)
        return -1;
    rec->finding_count++;
    return 0;
}

int anim_check_scope(anim_lint_context *ctx, anim_check_record *rec, const char *code,
                     const char *subject)
{
    anim_scope *items = grow(rec->scopes, rec->scope_count, &rec->scope_cap, sizeof *items);
    if (!items)
        return -1;
    rec->scopes = items;
    items[rec->scope_count].code = code;
    items[rec->scope_count].subject = copy_or_null(ctx->arena, subject);
    rec->scope_count++;
    return 0;
}

int anim_check_gap(anim_lint_context *ctx, anim_check_record *rec, const char *code,
                   const char *scope_code, const char *scope_subject, const char *fmt, ...)
{
    anim_gap *items = grow(rec->gaps, rec->gap_count, &rec->gap_cap, sizeof *items);
    if (!items)
        return -1;
    rec->gaps = items;
    anim_gap *g = &items[rec->gap_count];
    memset(g, 0, sizeof *g);
    g->code = code;
    g->has_scope = scope_code != NULL;
    g->scope.code = scope_code;
    g->scope.subject = copy_or_null(ctx->arena, scope_subject);
    va_list ap;
    va_start(ap, fmt);
    g->message = vformat(ctx->arena, NULL, fmt, ap);
    va_end(ap);
    if (!g->message)
        return -1;
    rec->gap_count++;
    return 0;
}

int anim_check_gap_root_motion_roles(anim_lint_context *ctx, anim_check_record *rec,
                                     const char *scope_code, const char *subject)
{
    return anim_check_gap(ctx, rec, "roles_unresolved", scope_code, subject,
                          "root/hips role not resolved (rig profile '%s')", ctx->rig->label);
}

int anim_check_gap_gait_roles(anim_lint_context *ctx, anim_check_record *rec,
                              const char *scope_code, const char *subject)
{
    return anim_check_gap(ctx, rec, "roles_unresolved", scope_code, subject,
                          "hips/foot roles not resolved (rig profile '%s') \xe2\x80\x94 needs hips "
                          "and at least one foot role",
                          ctx->rig->label);
}

/* ---- engine prediction facets ---- */

const char *anim_facet_state_name(anim_facet_state s)
{
    return s == ANIM_FACET_AVAILABLE ? "available" : "required_prediction_unavailable";
}

const char *anim_basis_kind_name(anim_basis_kind k)
{
    switch (k) {
    case ANIM_BASIS_PROFILE_FACT: return "profile_fact";
    case ANIM_BASIS_SETTING: return "setting";
    case ANIM_BASIS_CONFIG: return "config";
    case ANIM_BASIS_RAW_SOURCE: return "raw_source";
    case ANIM_BASIS_MEASUREMENT: return "measurement";
    default: return "primary_source";
    }
}

static int copy_field(anim_arena *arena, anim_field *dst, const anim_field *src)
{
    *dst = *src;
    dst->key = copy_or_null(arena, src->key);
    if (src->kind == ANIM_FIELD_TEXT)
        dst->text = copy_or_null(arena, src->text);
    if (src->kind == ANIM_FIELD_NUMBER && !isfinite(src->number))
        dst->kind = ANIM_FIELD_NULL; /* a non-finite number is never evidence */
    return (src->key && !dst->key) || (src->kind == ANIM_FIELD_TEXT && src->text && !dst->text)
               ? -1
               : 0;
}

/* The facet's rows copied into the arena, so checks build them on the
 * stack. */
static int copy_facet(anim_arena *arena, anim_prediction_facet *dst,
                      const anim_prediction_facet *src)
{
    memset(dst, 0, sizeof *dst);
    dst->scope.code = copy_or_null(arena, src->scope.code);
    dst->scope.subject = copy_or_null(arena, src->scope.subject);
    dst->state = src->state;
    dst->result_kind = copy_or_null(arena, src->result_kind);
    if (!dst->scope.code || (src->scope.subject && !dst->scope.subject) ||
        (src->result_kind && !dst->result_kind))
        return -1;
    if (src->result_count) {
        anim_field *r = anim_arena_alloc(arena, src->result_count * sizeof *r);
        if (!r)
            return -1;
        for (uint32_t i = 0; i < src->result_count; i++)
            if (copy_field(arena, &r[i], &src->result[i]))
                return -1;
        dst->result = r;
        dst->result_count = src->result_count;
    }
    if (src->basis_count) {
        anim_basis_row *b = anim_arena_alloc(arena, src->basis_count * sizeof *b);
        if (!b)
            return -1;
        for (uint32_t i = 0; i < src->basis_count; i++) {
            b[i].kind = src->basis[i].kind;
            if (copy_field(arena, &b[i].value, &src->basis[i].value))
                return -1;
        }
        dst->basis = b;
        dst->basis_count = src->basis_count;
    }
    if (src->reason_count) {
        const char **r = anim_arena_alloc(arena, src->reason_count * sizeof *r);
        if (!r)
            return -1;
        for (uint32_t i = 0; i < src->reason_count; i++)
            if (!(r[i] = copy_or_null(arena, src->reasons[i])))
                return -1;
        dst->reasons = r;
        dst->reason_count = src->reason_count;
    }
    return 0;
}

static const char *prediction_schema_of(const anim_lint_context *ctx)
{
    const anim_engine_profile *p = ctx->engine ? anim_engine_run_profile(ctx->engine) : NULL;
    return p && p->prediction_schema ? p->prediction_schema : "urn:animsmith:engine-prediction:3";
}

int anim_check_facet(anim_lint_context *ctx, anim_check_record *rec,
                     const anim_prediction_facet *facet)
{
    rec->prediction_schema = prediction_schema_of(ctx);
    /* One slot of the budget always stays for the compaction marker. */
    if (ctx->facet_budget_left <= 1) {
        rec->facets_omitted++;
        return 0;
    }
    anim_prediction_facet *items =
        grow(rec->facets, rec->facet_count, &rec->facet_cap, sizeof *items);
    if (!items)
        return -1;
    rec->facets = items;
    if (copy_facet(ctx->arena, &items[rec->facet_count], facet))
        return -1;
    if (facet->state == ANIM_FACET_AVAILABLE &&
        anim_check_scope(ctx, rec, items[rec->facet_count].scope.code,
                         items[rec->facet_count].scope.subject))
        return -1;
    rec->facet_count++;
    ctx->facet_budget_left--;
    return 0;
}

int anim_check_facet_unavailable(anim_lint_context *ctx, anim_check_record *rec,
                                 const char *scope_code, const char *scope_subject,
                                 const char *reason)
{
    const char *reasons[1] = {reason};
    anim_prediction_facet f;
    memset(&f, 0, sizeof f);
    f.scope.code = scope_code;
    f.scope.subject = scope_subject;
    f.state = ANIM_FACET_REQUIRED_UNAVAILABLE;
    f.reasons = reasons;
    f.reason_count = 1;
    return anim_check_facet(ctx, rec, &f);
}

void anim_check_facet_counts(const anim_check_record *rec, uint32_t *available,
                             uint32_t *unavailable)
{
    uint32_t a = 0, u = 0;
    for (uint32_t i = 0; i < rec->facet_count; i++) {
        if (rec->facets[i].state == ANIM_FACET_AVAILABLE)
            a++;
        else
            u++;
    }
    *available = a;
    *unavailable = u;
}

/* Closes a prediction-bearing record: the omitted facets become one
 * subjectless budget marker (the slot anim_check_facet kept for it). */
int anim_lint_facets_finish(anim_lint_context *ctx, anim_check_record *rec)
{
    if (!rec->facets_omitted)
        return 0;
    anim_prediction_facet *items =
        grow(rec->facets, rec->facet_count, &rec->facet_cap, sizeof *items);
    if (!items)
        return -1;
    rec->facets = items;
    static const char *const reasons[1] = {"facet_budget_exceeded"};
    anim_prediction_facet f;
    memset(&f, 0, sizeof f);
    f.scope.code = "facet_budget";
    f.state = ANIM_FACET_REQUIRED_UNAVAILABLE;
    f.reasons = reasons;
    f.reason_count = 1;
    if (copy_facet(ctx->arena, &items[rec->facet_count], &f))
        return -1;
    rec->facet_count++;
    return 0;
}
