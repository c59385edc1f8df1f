/* The batch transaction: validate every operation of a batch, then run
 * them in order on a shared working copy of the base version; the first
 * refusal discards the copy, so no partial batch is ever visible. After
 * each operation the document limits are enforced (objects, defined
 * materials, memory), so a limit is refused at the operation that crossed
 * it. Also the apply reply's result rows: a shared selection-id budget and
 * a byte budget, which shorten the reply but never make it fail.
 *
 * Ownership: a row's object name is copied (a later operation of the same
 * batch may delete or rename that object), and the op names of the rows
 * are kept in the same allocation as the rows, after them, since the row
 * type has no member for it; mdl_batch_free releases both. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json_write.h"
#include "model/mdl_batch.h"
#include "model/mdl_selfcheck.h"

int mdl_fault(anim_model_fault *f, int code, const char *kind, const char *fmt, ...)
{
    f->code = code;
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* The op names of the rows, stored after the rows. */
static const char **row_ops(const mdl_batch *b)
{
    return (const char **)(void *)(b->results + b->result_count);
}

static void result_free(mdl_result *r)
{
    free(r->faces);
    free(r->vertices);
    for (uint32_t i = 0; i < r->note_count; i++)
        free(r->notes[i]);
    free((void *)(uintptr_t)r->object);
    memset(r, 0, sizeof *r);
}

void mdl_batch_free(mdl_batch *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->result_count; i++)
        result_free(&b->results[i]);
    free(b->results);
    mdl_doc_free(b->doc);
    memset(b, 0, sizeof *b);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sorts and deduplicates ids in place (cheap when already so). */
static size_t sort_unique(uint64_t *ids, size_t n)
{
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; i++)
        sorted = ids[i - 1] < ids[i];
    if (sorted)
        return n;
    qsort(ids, n, sizeof *ids, cmp_u64);
    size_t o = n ? 1 : 0;
    for (size_t i = 1; i < n; i++) {
        if (ids[i] != ids[o - 1])
            ids[o++] = ids[i];
    }
    return o;
}

static bool is_limit_kind(const char *kind)
{
    return strcmp(kind, "limit_exceeded") == 0 || strcmp(kind, "work_limit_exceeded") == 0;
}

/* Fills the fault of a refused operation. name: its op, or what the
 * operation called itself when that is no known op (may be NULL). */
static int op_fault(anim_model_fault *fault, const mdl_ctx *ctx, const anim_json_value *op)
{
    const char *kind = ctx->refusal_kind ? ctx->refusal_kind : "invalid_operation";
    int code = ctx->nomem                ? ANIM_MODEL_E_INTERNAL
               : is_limit_kind(kind)     ? ANIM_MODEL_E_LIMIT
                                         : ANIM_MODEL_E_REFUSED;
    const anim_json_value *given = op && op->type == ANIM_JSON_OBJECT ? anim_json_get(op, "op") : NULL;
    if (given && given->type != ANIM_JSON_STRING)
        given = NULL;
    char shown[80];
    if (ctx->op) {
        snprintf(shown, sizeof shown, "%s", ctx->op);
    } else if (given) {
        /* An unknown op's own text, kept printable for a one-line message. */
        size_t n = anim_json_string_len(given), o = 0;
        const char *s = anim_json_string(given);
        for (size_t i = 0; i < n && o < 40; i++) {
            unsigned char c = (unsigned char)s[i];
            shown[o++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
        }
        shown[o] = '\0';
    } else {
        snprintf(shown, sizeof shown, "?");
    }
    mdl_fault(fault, code, kind, "operation %zu (%s): %s", ctx->index, shown, ctx->refusal);
    anim_strbuf_reset(&fault->data);
    anim_json_writer w;
    anim_json_writer_init(&w, &fault->data, false);
    anim_json_writer_begin_object(&w);
    anim_json_writer_key_uint(&w, "index", ctx->index);
    anim_json_writer_key(&w, "op");
    if (ctx->op)
        anim_json_writer_string(&w, ctx->op);
    else if (given)
        anim_json_writer_string_n(&w, anim_json_string(given),
                                  anim_json_string_len(given) > 64 ? 64
                                                                   : anim_json_string_len(given));
    else
        anim_json_writer_null(&w);
    anim_json_writer_key(&w, "reason");
    anim_json_writer_string(&w, kind);
    anim_json_writer_end_object(&w);
    return -1;
}

/* The document limits after an operation. */
static int check_limits(mdl_ctx *ctx)
{
    const anim_model_limits *l = ctx->limits;
    const mdl_doc *d = ctx->doc;
    if (d->object_count > l->max_objects)
        return mdl_refuse(ctx, "limit_exceeded",
                          "the document would hold %zu objects, more than max_objects (%u)",
                          d->object_count, (unsigned)l->max_objects);
    size_t defined = 0;
    for (size_t i = 0; i < MDL_MATERIAL_SLOTS; i++)
        defined += d->materials[i].defined;
    if (defined > l->max_materials)
        return mdl_refuse(ctx, "limit_exceeded",
                          "the document would define %zu materials, more than max_materials (%u)",
                          defined, (unsigned)l->max_materials);
    uint64_t mem = mdl_doc_memory_bytes(d);
    if (mem > l->max_memory_bytes)
        return mdl_refuse(ctx, "limit_exceeded",
                          "the document would hold %llu bytes, more than max_memory_bytes (%llu)",
                          (unsigned long long)mem, (unsigned long long)l->max_memory_bytes);
    return 0;
}

/* Morph targets pin their object's topology: an operation that deleted a
 * pinned object or changed its topology is refused until the targets are
 * deleted or rebuilt (earlier in the batch). Only objects the operation
 * made editable are hashed. */
static int check_morph_pins(mdl_ctx *ctx)
{
    mdl_doc *d = ctx->doc;
    for (size_t i = 0; i < d->morph_count; i++) {
        const mdl_morph *m = d->morphs[i];
        ptrdiff_t oi = mdl_doc_find_object(d, m->object);
        if (oi < 0)
            return mdl_refuse(ctx, "morph_target_pinned",
                              "object \"%s\" is the base of morph target \"%s\": delete the "
                              "target before deleting the object",
                              m->object, m->key.name);
        const mdl_object *o = d->objects[oi];
        if (!o->touched)
            continue;
        uint8_t sig[32];
        if (mdl_object_topology(o, sig))
            return mdl_nomem(ctx);
        if (mdl_spend(ctx, o->vertex_count + o->corner_count))
            return -1;
        if (memcmp(sig, m->topology, sizeof sig) != 0)
            return mdl_refuse(ctx, "morph_topology_changed",
                              "the operation changes the topology of object \"%s\", which morph "
                              "target \"%s\" pins: delete or rebuild the target first",
                              o->name, m->key.name);
    }
    for (size_t i = 0; i < d->object_count; i++)
        d->objects[i]->touched = false;
    return 0;
}

/* Copies the row's object name and puts its selections in id order. */
static int finish_row(mdl_ctx *ctx, mdl_result *r)
{
    r->face_count = sort_unique(r->faces, r->face_count);
    r->vertex_count = sort_unique(r->vertices, r->vertex_count);
    if (r->object) {
        size_t n = strlen(r->object);
        char *copy = malloc(n + 1);
        if (!copy) {
            r->object = NULL;
            return mdl_nomem(ctx);
        }
        memcpy(copy, r->object, n + 1);
        r->object = copy;
    }
    return 0;
}

int mdl_batch_run(const mdl_doc *base, const anim_json_value *ops,
                  const anim_model_limits *limits, uint64_t work_budget,
                  const volatile int *cancel, mdl_batch *out, anim_model_fault *fault)
{
    memset(out, 0, sizeof *out);
    if (!ops || ops->type != ANIM_JSON_ARRAY)
        return mdl_fault(fault, ANIM_MODEL_E_PARAMS, "wrong_type",
                         "field \"operations\": expected an array of operation objects");
    size_t n = anim_json_count(ops);
    if (n == 0)
        return mdl_fault(fault, ANIM_MODEL_E_REFUSED, "empty_batch",
                         "field \"operations\": a batch needs at least one operation");
    if (n > limits->max_batch_operations)
        return mdl_fault(fault, ANIM_MODEL_E_LIMIT, "too_many_operations",
                         "field \"operations\": %zu operations, more than "
                         "max_batch_operations (%u)",
                         n, (unsigned)limits->max_batch_operations);

    mdl_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.limits = limits;
    ctx.work_budget = work_budget;
    ctx.cancel = cancel;
    for (size_t i = 0; i < n; i++) {
        ctx.index = i;
        ctx.op = NULL;
        if (mdl_validate_op(&ctx, anim_json_item(ops, i)) != 0)
            return op_fault(fault, &ctx, anim_json_item(ops, i));
    }

    size_t bytes = 0;
    if (anim_size_mul(n, sizeof(mdl_result) + sizeof(const char *), &bytes))
        out->results = calloc(1, bytes);
    out->doc = mdl_doc_share(base);
    if (!out->results || !out->doc) {
        mdl_batch_free(out);
        return mdl_fault(fault, ANIM_MODEL_E_INTERNAL, "out_of_memory",
                         "out of memory starting the batch");
    }
    out->result_count = n;
    const char **names = row_ops(out);
    ctx.doc = out->doc;
    for (size_t i = 0; i < n; i++) {
        const anim_json_value *op = anim_json_item(ops, i);
        const anim_json_value *name = anim_json_get(op, "op");
        const mdl_op_def *def = mdl_op_find(anim_json_string(name), anim_json_string_len(name));
        ctx.index = i;
        ctx.op = def->op;
        ctx.result = &out->results[i];
        ctx.refusal_kind = NULL;
        names[i] = def->op;
        /* Spending nothing still polls cancellation between operations. */
        int rc = mdl_spend(&ctx, 0);
        if (rc == 0)
            rc = def->run(&ctx, op);
        if (rc == 0)
            rc = finish_row(&ctx, ctx.result);
        else
            ctx.result->object = NULL; /* still the working copy's, not the row's */
        if (rc == 0)
            rc = check_limits(&ctx);
        if (rc == 0)
            rc = check_morph_pins(&ctx);
        if (rc != 0) {
            if (!ctx.refusal_kind)
                mdl_refuse(&ctx, "invalid_operation", "the operation failed");
            mdl_batch_free(out);
            return op_fault(fault, &ctx, op);
        }
    }
    out->work = ctx.work;
    mdl_selfcheck_doc(out->doc);
    return 0;
}

/* ---- the reply's result rows */

typedef struct row_plan {
    size_t faces, vertices; /* ids returned */
} row_plan;

static void write_ids(anim_json_writer *w, const char *key, const uint64_t *ids, size_t n)
{
    anim_json_writer_key(w, key);
    anim_json_writer_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        char buf[24];
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)ids[i]);
        anim_json_writer_string(w, buf);
    }
    anim_json_writer_end_array(w);
}

static void write_row(anim_json_writer *w, const mdl_batch *b, size_t i, const row_plan *p)
{
    const mdl_result *r = &b->results[i];
    const char *op = row_ops(b)[i];
    anim_json_writer_begin_object(w);
    anim_json_writer_key_uint(w, "result_index", i);
    anim_json_writer_key_string_or_null(w, "op", op);
    anim_json_writer_key_string_or_null(w, "object", r->object);
    anim_json_writer_key_uint(w, "face_count", r->face_count);
    anim_json_writer_key_uint(w, "vertex_count", r->vertex_count);
    write_ids(w, "faces", r->faces, p->faces);
    write_ids(w, "vertices", r->vertices, p->vertices);
    anim_json_writer_key(w, "selections_truncated");
    anim_json_writer_bool(w, p->faces < r->face_count || p->vertices < r->vertex_count);
    if (r->note_count) {
        anim_json_writer_key(w, "notes");
        anim_json_writer_begin_array(w);
        for (uint32_t k = 0; k < r->note_count; k++)
            anim_json_writer_string(w, r->notes[k]);
        anim_json_writer_end_array(w);
    }
    anim_json_writer_end_object(w);
}

/* byte_budget bounds what mdl_batch_write_results appends. Room kept for
 * the closing bracket and the totals after the rows (eight members of at
 * most 20 digits, indented when pretty). */
#define TRAILER_RESERVE 768u

void mdl_batch_write_results(const mdl_batch *b, const anim_model_limits *limits,
                             size_t byte_budget, struct anim_json_writer *w)
{
    size_t n = b->result_count;
    size_t start = w->out->len;
    row_plan *plan = n ? calloc(n, sizeof *plan) : NULL;
    uint64_t budget = limits->max_selection_ids;
    uint64_t face_total = 0, vertex_total = 0, returned_ids = 0;
    for (size_t i = 0; i < n; i++) {
        mdl_result *r = &b->results[i];
        r->face_count = sort_unique(r->faces, r->face_count);
        r->vertex_count = sort_unique(r->vertices, r->vertex_count);
        face_total += r->face_count;
        vertex_total += r->vertex_count;
        if (!plan)
            continue;
        size_t f = r->face_count < budget ? r->face_count : (size_t)budget;
        budget -= f;
        size_t v = r->vertex_count < budget ? r->vertex_count : (size_t)budget;
        budget -= v;
        plan[i].faces = f;
        plan[i].vertices = v;
    }
    /* Without memory for the plan, rows still go out, without ids. */
    row_plan none = {0, 0};

    anim_json_writer_key(w, "results");
    anim_json_writer_begin_array(w);
    size_t written = 0;
    for (size_t i = 0; i < n; i++) {
        anim_json_writer before = *w;
        size_t len = w->out->len;
        const row_plan *p = plan ? &plan[i] : &none;
        write_row(w, b, i, p);
        if (w->out->len - start + TRAILER_RESERVE > byte_budget) {
            /* Drop this row and every later one: the rows kept are a prefix. */
            *w = before;
            w->out->len = len;
            if (w->out->data)
                w->out->data[len] = '\0';
            break;
        }
        returned_ids += p->faces + p->vertices;
        written++;
    }
    anim_json_writer_end_array(w);
    uint64_t total_ids = face_total + vertex_total;
    anim_json_writer_key_uint(w, "results_total", n);
    anim_json_writer_key_uint(w, "results_returned", written);
    anim_json_writer_key_uint(w, "results_omitted", n - written);
    anim_json_writer_key(w, "results_truncated");
    anim_json_writer_bool(w, written < n);
    anim_json_writer_key_uint(w, "selection_face_total", face_total);
    anim_json_writer_key_uint(w, "selection_vertex_total", vertex_total);
    anim_json_writer_key_uint(w, "selection_ids_returned", returned_ids);
    anim_json_writer_key_uint(w, "selection_ids_omitted", total_ids - returned_ids);
    free(plan);
}
