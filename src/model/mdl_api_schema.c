/* world.api: the operation contracts and the method params as one JSON
 * Schema (draft 2020-12) document, generated from the same operation table
 * and field specs the validator enforces (mdl_ops.h), so what an agent is
 * told cannot drift from what is refused. Output is compact and
 * deterministic: table order, fixed key order. */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "animsmith/json_write.h"
#include "animsmith/model.h"
#include "model/mdl_ops.h"

/* Must match the validator's defaults (mdl_validate.c). */
#define ITEMS_DEFAULT_MAX 1000000u

/* Integral bounds as integers ("128", not "128.0"). */
static void key_f64(anim_json_writer *w, const char *key, double v)
{
    anim_json_writer_key(w, key);
    if (trunc(v) == v && fabs(v) < 9007199254740992.0)
        anim_json_writer_int(w, (int64_t)v);
    else
        anim_json_writer_f64(w, v);
}

static void key_str(anim_json_writer *w, const char *key, const char *v)
{
    anim_json_writer_key(w, key);
    anim_json_writer_string(w, v);
}

static bool has_range(const mdl_field *f)
{
    return !(f->min == 0 && f->max == 0 && !f->min_open && !f->max_open);
}

/* Bounds at the edge of f64 are no bound worth stating. */
static bool real_bound(double v)
{
    return isfinite(v) && fabs(v) < DBL_MAX;
}

static void number_schema(anim_json_writer *w, const mdl_field *f, bool integer)
{
    anim_json_writer_begin_object(w);
    key_str(w, "type", integer ? "integer" : "number");
    if (f && has_range(f)) {
        if (real_bound(f->min))
            key_f64(w, f->min_open ? "exclusiveMinimum" : "minimum", f->min);
        if (real_bound(f->max))
            key_f64(w, f->max_open ? "exclusiveMaximum" : "maximum", f->max);
    }
    anim_json_writer_end_object(w);
}

static void id_schema(anim_json_writer *w)
{
    anim_json_writer_begin_object(w);
    key_str(w, "type", "string");
    key_str(w, "pattern", "^[1-9][0-9]*$");
    anim_json_writer_end_object(w);
}

static void name_schema(anim_json_writer *w, const char *description)
{
    anim_json_writer_begin_object(w);
    key_str(w, "type", "string");
    anim_json_writer_key_uint(w, "minLength", 1);
    anim_json_writer_key_uint(w, "maxLength", MDL_NAME_MAX);
    if (description)
        key_str(w, "description", description);
    anim_json_writer_end_object(w);
}

static void items_bounds(anim_json_writer *w, uint32_t min, uint32_t max)
{
    anim_json_writer_key_uint(w, "minItems", min);
    anim_json_writer_key_uint(w, "maxItems", max ? max : ITEMS_DEFAULT_MAX);
}

/* [n numbers], each number per the lane spec f. */
static void vec_schema(anim_json_writer *w, const mdl_field *f, unsigned n, bool integer)
{
    anim_json_writer_key(w, "items");
    number_schema(w, f, integer);
    items_bounds(w, n, n);
}

static void fields_schema(anim_json_writer *w, const mdl_field *fields, const mdl_op_def *def);

static void field_schema(anim_json_writer *w, const mdl_field *f)
{
    static const mdl_field byte = {.min = 0, .max = 255};
    static const mdl_field any = {0};
    anim_json_writer_begin_object(w);
    switch (f->type) {
    case MDL_F_NUMBER:
    case MDL_F_INTEGER:
    case MDL_F_INTEGER_OR_NULL:
        if (f->type == MDL_F_INTEGER_OR_NULL) {
            anim_json_writer_key(w, "type");
            anim_json_writer_begin_array(w);
            anim_json_writer_string(w, "integer");
            anim_json_writer_string(w, "null");
            anim_json_writer_end_array(w);
        } else {
            key_str(w, "type", f->type == MDL_F_NUMBER ? "number" : "integer");
        }
        if (has_range(f)) {
            if (real_bound(f->min))
                key_f64(w, f->min_open ? "exclusiveMinimum" : "minimum", f->min);
            if (real_bound(f->max))
                key_f64(w, f->max_open ? "exclusiveMaximum" : "maximum", f->max);
        }
        break;
    case MDL_F_BOOL:
        key_str(w, "type", "boolean");
        break;
    case MDL_F_NAME:
        key_str(w, "type", "string");
        anim_json_writer_key_uint(w, "minLength", 1);
        anim_json_writer_key_uint(w, "maxLength", MDL_NAME_MAX);
        break;
    case MDL_F_ID:
        key_str(w, "type", "string");
        key_str(w, "pattern", "^[1-9][0-9]*$");
        break;
    case MDL_F_IDS:
        key_str(w, "type", "array");
        anim_json_writer_key(w, "items");
        id_schema(w);
        items_bounds(w, f->min_items, f->max_items);
        anim_json_writer_key(w, "uniqueItems");
        anim_json_writer_bool(w, true);
        break;
    case MDL_F_VEC2:
    case MDL_F_VEC3:
    case MDL_F_VEC4:
        key_str(w, "type", "array");
        vec_schema(w, f, f->type == MDL_F_VEC2 ? 2 : f->type == MDL_F_VEC3 ? 3 : 4, false);
        break;
    case MDL_F_VEC3_OR_NULL:
        anim_json_writer_key(w, "type");
        anim_json_writer_begin_array(w);
        anim_json_writer_string(w, "array");
        anim_json_writer_string(w, "null");
        anim_json_writer_end_array(w);
        vec_schema(w, f, 3, false);
        break;
    case MDL_F_RGB8:
        key_str(w, "type", "array");
        vec_schema(w, &byte, 3, true);
        break;
    case MDL_F_MATRIX:
        key_str(w, "type", "array");
        anim_json_writer_key(w, "items");
        anim_json_writer_begin_object(w);
        key_str(w, "type", "array");
        vec_schema(w, has_range(f) ? f : &any, 4, false);
        anim_json_writer_end_object(w);
        items_bounds(w, 4, 4);
        break;
    case MDL_F_VEC3_ARRAY:
    case MDL_F_VEC2_ARRAY:
        key_str(w, "type", "array");
        anim_json_writer_key(w, "items");
        anim_json_writer_begin_object(w);
        key_str(w, "type", "array");
        vec_schema(w, f, f->type == MDL_F_VEC3_ARRAY ? 3 : 2, false);
        anim_json_writer_end_object(w);
        items_bounds(w, f->min_items, f->max_items);
        break;
    case MDL_F_INT_ARRAY:
        key_str(w, "type", "array");
        anim_json_writer_key(w, "items");
        number_schema(w, f, true);
        items_bounds(w, f->min_items, f->max_items);
        break;
    case MDL_F_OBJECTS:
        key_str(w, "type", "array");
        anim_json_writer_key(w, "items");
        anim_json_writer_begin_object(w);
        fields_schema(w, f->fields, NULL);
        anim_json_writer_end_object(w);
        items_bounds(w, f->min_items, f->max_items);
        break;
    case MDL_F_OBJECT:
        fields_schema(w, f->fields, NULL);
        break;
    case MDL_F_PATH:
        key_str(w, "type", "string");
        anim_json_writer_key(w, "enum");
        anim_json_writer_begin_array(w);
        anim_json_writer_string(w, "translation");
        anim_json_writer_string(w, "rotation");
        anim_json_writer_string(w, "scale");
        anim_json_writer_end_array(w);
        break;
    }
    if (f->description)
        key_str(w, "description", f->description);
    anim_json_writer_end_object(w);
}

/* The members of an object schema (type, properties, required,
 * additionalProperties) into the open object; def set for an operation. */
static void fields_schema(anim_json_writer *w, const mdl_field *fields, const mdl_op_def *def)
{
    key_str(w, "type", "object");
    if (def && def->description)
        key_str(w, "description", def->description);
    anim_json_writer_key(w, "properties");
    anim_json_writer_begin_object(w);
    if (def) {
        anim_json_writer_key(w, "op");
        anim_json_writer_begin_object(w);
        key_str(w, "const", def->op);
        anim_json_writer_end_object(w);
        if (def->mesh_edit) {
            anim_json_writer_key(w, "object");
            name_schema(w, "the object the operation edits");
        }
    }
    for (const mdl_field *f = fields; f && f->name; f++) {
        anim_json_writer_key(w, f->name);
        field_schema(w, f);
    }
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "required");
    anim_json_writer_begin_array(w);
    if (def) {
        anim_json_writer_string(w, "op");
        if (def->mesh_edit)
            anim_json_writer_string(w, "object");
    }
    for (const mdl_field *f = fields; f && f->name; f++) {
        if (f->required)
            anim_json_writer_string(w, f->name);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "additionalProperties");
    anim_json_writer_bool(w, false);
}

/* ---- method params */

typedef enum { P_DOC, P_HEAD, P_REQUEST, P_OPS, P_ASYNC, P_OBJECT, P_DOMAIN, P_OFFSET,
               P_LIMIT, P_ISSUE, P_ACTION, P_JOB, P_OUTPUT } param_kind;

typedef struct param {
    const char *name;
    param_kind kind;
    bool required;
} param;

static void ref(anim_json_writer *w, const char *target, const char *description)
{
    anim_json_writer_begin_object(w);
    key_str(w, "$ref", target);
    if (description)
        key_str(w, "description", description);
    anim_json_writer_end_object(w);
}

static void string_enum(anim_json_writer *w, const char *const *values, const char *description)
{
    anim_json_writer_begin_object(w);
    key_str(w, "type", "string");
    anim_json_writer_key(w, "enum");
    anim_json_writer_begin_array(w);
    for (const char *const *v = values; *v; v++)
        anim_json_writer_string(w, *v);
    anim_json_writer_end_array(w);
    key_str(w, "description", description);
    anim_json_writer_end_object(w);
}

static void param_schema(anim_json_writer *w, param_kind k)
{
    static const char *const domains[] = {"overview", "objects", "materials", "joints",
                                          "clips",    "clip_keys", "vertices", "faces",
                                          "corners",  "edges",   "weights",  "solid", NULL};
    static const char *const actions[] = {"undo", "redo", "checkpoint", NULL};
    switch (k) {
    case P_DOC:
        name_schema(w, "the open document's name");
        break;
    case P_HEAD:
        ref(w, "#/$defs/head", "the head the request was planned against");
        break;
    case P_REQUEST:
        anim_json_writer_begin_object(w);
        key_str(w, "type", "string");
        anim_json_writer_key_uint(w, "minLength", 1);
        anim_json_writer_key_uint(w, "maxLength", 128);
        key_str(w, "pattern", "^[ -~]+$");
        key_str(w, "description",
                "idempotency key: a repeat with the same payload returns the original result");
        anim_json_writer_end_object(w);
        break;
    case P_OPS:
        anim_json_writer_begin_object(w);
        key_str(w, "type", "array");
        anim_json_writer_key(w, "items");
        ref(w, "#/operation", NULL);
        anim_json_writer_key_uint(w, "minItems", 1);
        anim_json_writer_key_uint(w, "maxItems", 256);
        key_str(w, "description", "applied in order, all or nothing");
        anim_json_writer_end_object(w);
        break;
    case P_ASYNC:
        anim_json_writer_begin_object(w);
        key_str(w, "type", "boolean");
        key_str(w, "description", "return an accepted job id instead of waiting");
        anim_json_writer_end_object(w);
        break;
    case P_OBJECT:
        name_schema(w, "scope the page to this object");
        break;
    case P_DOMAIN:
        string_enum(w, domains,
                    "document domains without object: overview objects materials joints clips "
                    "clip_keys; with object: overview vertices faces corners edges weights solid");
        break;
    case P_OFFSET:
    case P_ISSUE:
        anim_json_writer_begin_object(w);
        key_str(w, "type", "integer");
        anim_json_writer_key_uint(w, "minimum", 0);
        key_str(w, "description", k == P_OFFSET ? "the page's first row (a next_offset)"
                                                : "the first validation issue (a next_issue_offset)");
        anim_json_writer_end_object(w);
        break;
    case P_LIMIT:
        anim_json_writer_begin_object(w);
        key_str(w, "type", "integer");
        anim_json_writer_key_uint(w, "minimum", 1);
        anim_json_writer_key_uint(w, "maximum", 128);
        anim_json_writer_end_object(w);
        break;
    case P_ACTION:
        string_enum(w, actions, "move the undo cursor, or discard undo/redo history");
        break;
    case P_JOB:
        anim_json_writer_begin_object(w);
        key_str(w, "type", "string");
        key_str(w, "pattern", "^[1-9][0-9]*$");
        key_str(w, "description", "an accepted job id");
        anim_json_writer_end_object(w);
        break;
    case P_OUTPUT:
        anim_json_writer_begin_object(w);
        key_str(w, "type", "string");
        key_str(w, "description", "where to write the GLB instead of returning it");
        anim_json_writer_end_object(w);
        break;
    }
}

typedef struct method {
    const char *name;
    const char *description;
    param params[8]; /* NULL-name terminated */
} method;

static const method methods[] = {
    {"model.open", "create an empty document", {{"document", P_DOC, true}, {0}}},
    {"model.apply",
     "apply a batch of operations atomically to the expected head",
     {{"document", P_DOC, true},
      {"request_id", P_REQUEST, true},
      {"expected", P_HEAD, true},
      {"operations", P_OPS, true},
      {"async", P_ASYNC, false},
      {0}}},
    {"model.inspect",
     "one bounded page of a document or object domain",
     {{"document", P_DOC, true},
      {"object", P_OBJECT, false},
      {"domain", P_DOMAIN, true},
      {"offset", P_OFFSET, false},
      {"limit", P_LIMIT, true},
      {"issue_offset", P_ISSUE, false},
      {0}}},
    {"model.history",
     "undo, redo or checkpoint",
     {{"document", P_DOC, true},
      {"expected", P_HEAD, true},
      {"action", P_ACTION, true},
      {"async", P_ASYNC, false},
      {0}}},
    {"model.job", "the state and result of an accepted job", {{"job", P_JOB, true}, {0}}},
    {"model.cancel", "request cancellation of an accepted job", {{"job", P_JOB, true}, {0}}},
    {"model.close",
     "release the document",
     {{"document", P_DOC, true}, {"expected", P_HEAD, true}, {0}}},
    {"model.compile",
     "compile the document at the expected head to GLB",
     {{"document", P_DOC, true},
      {"expected", P_HEAD, true},
      {"output", P_OUTPUT, false},
      {"async", P_ASYNC, false},
      {0}}},
    {"model.compile_preview",
     "compile a static draft GLB at the expected head",
     {{"document", P_DOC, true},
      {"expected", P_HEAD, true},
      {"output", P_OUTPUT, false},
      {"async", P_ASYNC, false},
      {0}}},
    {"world.api", "this schema", {{0}}},
};

static void method_schema(anim_json_writer *w, const method *m)
{
    anim_json_writer_begin_object(w);
    key_str(w, "type", "object");
    key_str(w, "description", m->description);
    anim_json_writer_key(w, "properties");
    anim_json_writer_begin_object(w);
    for (const param *p = m->params; p->name; p++) {
        anim_json_writer_key(w, p->name);
        param_schema(w, p->kind);
    }
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "required");
    anim_json_writer_begin_array(w);
    for (const param *p = m->params; p->name; p++) {
        if (p->required)
            anim_json_writer_string(w, p->name);
    }
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "additionalProperties");
    anim_json_writer_bool(w, false);
    anim_json_writer_end_object(w);
}

static void head_schema(anim_json_writer *w)
{
    anim_json_writer_begin_object(w);
    key_str(w, "type", "object");
    anim_json_writer_key(w, "properties");
    anim_json_writer_begin_object(w);
    anim_json_writer_key(w, "generation");
    anim_json_writer_begin_object(w);
    key_str(w, "type", "string");
    key_str(w, "pattern", "^(0|[1-9][0-9]*)$");
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "content");
    anim_json_writer_begin_object(w);
    key_str(w, "type", "string");
    key_str(w, "pattern", "^[0-9a-f]{64}$");
    anim_json_writer_end_object(w);
    anim_json_writer_end_object(w);
    anim_json_writer_key(w, "required");
    anim_json_writer_begin_array(w);
    anim_json_writer_string(w, "generation");
    anim_json_writer_string(w, "content");
    anim_json_writer_end_array(w);
    anim_json_writer_key(w, "additionalProperties");
    anim_json_writer_bool(w, false);
    anim_json_writer_end_object(w);
}

int anim_model_api_schema(anim_strbuf *out)
{
    anim_json_writer w;
    anim_json_writer_init(&w, out, false);
    anim_json_writer_begin_object(&w);
    key_str(&w, "$schema", "https://json-schema.org/draft/2020-12/schema");
    key_str(&w, "title", "animsmith model authoring API");
    anim_json_writer_key(&w, "$defs");
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "head");
    head_schema(&w);
    anim_json_writer_end_object(&w);
    anim_json_writer_key(&w, "operations");
    anim_json_writer_begin_object(&w);
    for (size_t i = 0; i < mdl_op_def_count; i++) {
        const mdl_op_def *d = mdl_op_defs[i];
        anim_json_writer_key(&w, d->op);
        anim_json_writer_begin_object(&w);
        fields_schema(&w, d->fields, d);
        anim_json_writer_end_object(&w);
    }
    anim_json_writer_end_object(&w);
    anim_json_writer_key(&w, "operation");
    anim_json_writer_begin_object(&w);
    anim_json_writer_key(&w, "oneOf");
    anim_json_writer_begin_array(&w);
    for (size_t i = 0; i < mdl_op_def_count; i++) {
        char target[96];
        snprintf(target, sizeof target, "#/operations/%s", mdl_op_defs[i]->op);
        ref(&w, target, NULL);
    }
    anim_json_writer_end_array(&w);
    anim_json_writer_end_object(&w);
    anim_json_writer_key(&w, "methods");
    anim_json_writer_begin_object(&w);
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        anim_json_writer_key(&w, methods[i].name);
        method_schema(&w, &methods[i]);
    }
    anim_json_writer_end_object(&w);
    anim_json_writer_end_object(&w);
    return anim_json_writer_ok(&w) ? 0 : -1;
}
