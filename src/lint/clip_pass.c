/* The clip pass of a lint run: for each clip, every active per-clip check
 * judges that clip alone, the whole-document checks gather their small
 * per-clip facts and the caller's clip_done sees it, then the clip's grid
 * is released.
 *
 * One worker walks the clips in order, appending straight to the run's
 * records. Several workers (anim_lint_parallel) each take the next clip
 * not yet taken, with a context of their own (grid, scratch, clip facts,
 * arena: none of them is thread-safe), and append to that clip's own
 * records; the file's thread then appends those to the run's records in
 * clip order. A per-clip check reads nothing of its record, so a clip's
 * findings are the same wherever they are appended, and the merged
 * records are exactly what one worker produces. The pass also takes the
 * digest of the file's bytes (out->sha256_hex), which a parallel pass
 * computes on a worker while the others judge clips. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/hash.h"
#include "checks/checks.h"
#include "checks/group_util.h"
#include "lint/clip_facts.h"
#include "lint/run_internal.h"

/* One clip: the per-clip checks append to records (record_count entries,
 * catalog order). */
static int judge_clip(anim_lint_context *ctx, anim_check_record *records, size_t record_count,
                      const bool *active, const anim_lint_options *opts, uint32_t c,
                      anim_error *err)
{
    ctx->pass_clip = c;
    if (anim_lint_scratch_reset(ctx, err))
        return -1;
    for (size_t i = 0; i < record_count; i++) {
        const anim_check_def *def = anim_check_at(i);
        if (!active[i])
            continue;
        if (anim_lint_per_clip(def)) {
            if (anim_lint_evaluate(ctx, def, &records[i], err))
                return -1;
        } else if (def->gather) {
            anim_error_clear(err);
            if (def->gather(ctx, c, err))
                return anim_lint_check_failed(def, err);
        }
    }
    if (opts && opts->clip_done) {
        anim_error_clear(err);
        if (opts->clip_done(ctx, c, opts->user, err))
            return -1;
    }
    anim_lint_grid_release(ctx);
    return 0;
}

/* What one clip of a parallel pass leaves for the merge. */
typedef struct {
    anim_check_record *records; /* record_count entries */
    int rc;
    anim_error err;
} clip_outcome;

typedef struct {
    anim_lint_context *base;    /* worker 0's context: the run's own */
    anim_lint_context *extra;   /* workers 1.. */
    const anim_lint_file *out;
    const bool *active;
    const anim_lint_options *opts;
    clip_outcome *clips;        /* per clip of the batch */
    uint32_t first;             /* the batch: clips first .. first + clip_count - 1 */
    uint32_t clip_count;
    char *sha256_hex;           /* the file's digest, unit 0 of the first batch */
    atomic_uint next;           /* the next unit not yet taken: 0 the digest, i + 1 clip first + i */
    atomic_bool failed;
} parallel_pass;

/* Clips judged per batch: their records and errors are held until the
 * batch is merged, so a file of 100,000 clips needs memory for this many,
 * not for all of them. Large enough that waiting for a batch's slowest
 * clip costs little. */
#define CLIP_BATCH 256u

/* The digest of the file's bytes: serial work as long as a few clips, so
 * a parallel pass hands it to a worker like one more clip. */
static void digest(const anim_lint_context *ctx, char *sha256_hex)
{
    anim_sha256_hex(ctx->asset->source.input_bytes, ctx->asset->source.input_byte_count, sha256_hex);
}

static void forget_clip_state(anim_lint_context *ctx)
{
    anim_lint_grid_release(ctx);
    if (ctx->worker != 0) /* worker 0 is the run's context, freed by the run */
        anim_grid_memory_free(&ctx->grid_memory);
    anim_lint_scratch_drop(ctx);
}

static void worker_task(uint32_t worker, void *arg)
{
    parallel_pass *p = arg;
    anim_lint_context *ctx = worker == 0 ? p->base : &p->extra[worker - 1];
    /* Clips are taken in increasing order, so every clip below a failed
     * one has been taken and completes: the lowest failure, the one a
     * single worker stops at, is always known. */
    while (!atomic_load(&p->failed)) {
        unsigned unit = atomic_fetch_add(&p->next, 1u);
        if (unit == 0) {
            digest(ctx, p->sha256_hex);
            continue;
        }
        uint32_t i = unit - 1;
        if (i >= p->clip_count)
            break;
        clip_outcome *o = &p->clips[i];
        anim_error_clear(&o->err);
        o->rc = judge_clip(ctx, o->records, p->out->record_count, p->active, p->opts, p->first + i,
                           &o->err);
        if (o->rc)
            atomic_store(&p->failed, true);
    }
    forget_clip_state(ctx);
}

/* Appends every clip's records of the batch in clip order; the first
 * failed clip's error is the run's. The per-clip arrays are released
 * either way. */
static int merge(parallel_pass *p, anim_lint_file *out, anim_error *err)
{
    int rc = 0;
    for (uint32_t c = 0; c < p->clip_count; c++) {
        clip_outcome *o = &p->clips[c];
        if (rc == 0 && o->rc) {
            *err = o->err;
            rc = -1;
        }
        for (size_t i = 0; i < out->record_count; i++) {
            if (rc == 0 && anim_lint_record_append(&out->records[i], &o->records[i]))
                rc = anim_error_set(err, ANIM_ERR_NOMEM, "check %s: out of memory",
                                    out->records[i].check_id);
            anim_lint_record_release(&o->records[i]);
        }
    }
    return rc;
}

/* The extra workers' contexts: the run's context (sharing its gather
 * table) with a grid, scratch, clip-fact cache and arena of their own.
 * Their arenas go to the result at once (their findings' strings will
 * live there), so every exit frees them with it. */
static int make_workers(anim_lint_context *base, anim_lint_file *out, uint32_t workers,
                        anim_lint_context *extra, anim_error *err)
{
    out->worker_arenas = calloc(workers - 1, sizeof *out->worker_arenas);
    if (!out->worker_arenas)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t w = 1; w < workers; w++) {
        anim_arena *arena = anim_arena_new();
        if (!arena)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        out->worker_arenas[out->worker_arena_count++] = arena;
        anim_lint_context *ctx = &extra[w - 1];
        *ctx = *base;
        ctx->arena = arena;
        ctx->scratch = NULL;
        memset(&ctx->grid, 0, sizeof ctx->grid);
        memset(&ctx->grid_memory, 0, sizeof ctx->grid_memory);
        ctx->grid_clip = ANIM_NONE;
        ctx->grid_built = false;
        ctx->clip_facts = NULL;
        ctx->check_memo = NULL;
        ctx->worker = w;
    }
    return 0;
}

/* The gather tables the workers share are made before any of them runs. */
static int prepare_gathers(anim_lint_context *ctx, const anim_lint_file *out, const bool *active,
                           anim_error *err)
{
    for (size_t i = 0; i < out->record_count; i++)
        if (active[i] && !anim_lint_per_clip(anim_check_at(i)) && anim_check_at(i)->gather)
            return group_facts_prepare(ctx, err);
    return 0;
}

static int pass_parallel(anim_lint_context *ctx, anim_lint_file *out, const bool *active,
                         const anim_lint_options *opts, const anim_lint_parallel *par,
                         uint32_t workers, anim_error *err)
{
    uint32_t n = ctx->doc->clip_count;
    uint32_t batch = n < CLIP_BATCH ? n : CLIP_BATCH;
    size_t slots;
    if (!anim_size_mul(batch, out->record_count, &slots))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    parallel_pass p;
    memset(&p, 0, sizeof p);
    p.base = ctx;
    p.out = out;
    p.active = active;
    p.opts = opts;
    p.sha256_hex = out->sha256_hex;
    p.extra = calloc(workers - 1, sizeof *p.extra);
    p.clips = calloc(batch, sizeof *p.clips);
    anim_check_record *records = calloc(slots, sizeof *records);
    int rc = 0;
    if (!p.extra || !p.clips || !records)
        rc = anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    if (rc == 0)
        rc = prepare_gathers(ctx, out, active, err);
    if (rc == 0)
        rc = make_workers(ctx, out, workers, p.extra, err);
    for (uint32_t first = 0; rc == 0 && first < n; first += batch) {
        p.first = first;
        p.clip_count = n - first < batch ? n - first : batch;
        memset(records, 0, slots * sizeof *records);
        memset(p.clips, 0, batch * sizeof *p.clips);
        for (uint32_t c = 0; c < p.clip_count; c++) {
            p.clips[c].records = records + (size_t)c * out->record_count;
            /* Each clip's records start as the run's (id, selection), empty. */
            for (size_t i = 0; i < out->record_count; i++) {
                anim_check_record *r = &p.clips[c].records[i];
                r->check_id = out->records[i].check_id;
                r->selected = out->records[i].selected;
                r->enabled = out->records[i].enabled;
                r->applicable = out->records[i].applicable;
            }
        }
        /* The digest is the first unit of the first batch only. */
        atomic_init(&p.next, first == 0 ? 0u : 1u);
        atomic_init(&p.failed, false);
        par->spawn(workers, worker_task, &p);
        rc = merge(&p, out, err);
    }
    free(records);
    free(p.clips);
    free(p.extra);
    return rc;
}

int anim_lint_clip_pass(anim_lint_context *ctx, anim_lint_file *out, const bool *active,
                        const anim_lint_options *opts, const anim_lint_parallel *par,
                        anim_error *err)
{
    uint32_t n = ctx->doc->clip_count;
    uint32_t workers = par && par->spawn ? par->workers : 1;
    if (workers > n)
        workers = n;
    if (workers > 1)
        return pass_parallel(ctx, out, active, opts, par, workers, err);
    digest(ctx, out->sha256_hex);
    for (uint32_t c = 0; c < n; c++)
        if (judge_clip(ctx, out->records, out->record_count, active, opts, c, err))
            return -1;
    return 0;
}
