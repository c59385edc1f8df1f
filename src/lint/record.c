/* Recording findings, evaluated scopes and coverage gaps into a check
 * record. Strings are copied into the run's arena so a check may format
 * into stack buffers. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
