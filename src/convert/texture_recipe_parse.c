/* Reading a material texture recipe: strict TOML, the version-1 schema
 * with no unknown keys, then path resolution and a header probe of every
 * image, so every operator error is found before the asset is touched.
 * The first problem found is the one reported, as one line naming the
 * recipe file, the line and column, and the key (materials[i].slot). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "animsmith/toml.h"
#include "convert/texture_internal.h"
#include "io/file_read.h"

/* A recipe is a few kilobytes of hand-written TOML. */
#define ANIM_TEXTURE_RECIPE_MAX_BYTES ((size_t)1 << 20)

static const char *const top_keys[] = {"schema_version", "schema", "texture_root",
                                       "max_dimension", "materials", NULL};
static const char *const entry_keys[] = {"name", "base_color", "normal", "metallic_roughness",
                                         "occlusion", NULL};

const char *anim_texture_slot_name(int slot)
{
    static const char *const names[ANIM_TEXTURE_SLOT_COUNT] = {"base_color", "normal",
                                                               "metallic_roughness", "occlusion"};
    return slot >= 0 && slot < ANIM_TEXTURE_SLOT_COUNT ? names[slot] : "unknown";
}

int anim_texture_recipe_fail(anim_error *err, anim_error_code code, const char *recipe,
                             uint32_t line, uint32_t column, const char *fmt, ...)
{
    char what[ANIM_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return anim_error_set(err, code, "bad recipe %s: line %u column %u: %s", recipe,
                          (unsigned)line, (unsigned)column, what);
}

typedef struct {
    const char *path;
    anim_arena *arena;
    anim_error *err;
} rp_ctx;

#define FAIL(c, line, col, ...)                                                          \
    anim_texture_recipe_fail((c)->err, ANIM_ERR_INVALID, (c)->path, (line), (col), __VA_ARGS__)

static bool key_known(const anim_toml_entry *e, const char *const *known)
{
    for (size_t k = 0; known[k]; k++)
        if (strlen(known[k]) == e->key_len && memcmp(known[k], e->key, e->key_len) == 0)
            return true;
    return false;
}

static int check_keys(rp_ctx *c, const anim_toml_value *t, const char *where,
                      const char *const *known)
{
    for (size_t i = 0; i < t->u.table.count; i++) {
        const anim_toml_entry *e = &t->u.table.entries[i];
        if (!key_known(e, known))
            return FAIL(c, e->line, e->column, "unknown key \"%s\" in %s", e->key, where);
    }
    return 0;
}

/* The entry under key, or a "missing required key" error at the table. */
static int require(rp_ctx *c, const anim_toml_value *t, const char *where, const char *key,
                   const anim_toml_entry **out)
{
    *out = anim_toml_find(t, key, strlen(key));
    if (*out)
        return 0;
    return FAIL(c, t->line, t->column, "%s is missing required key \"%s\"", where, key);
}

static int wrong_type(rp_ctx *c, const anim_toml_entry *e, const char *label, const char *want)
{
    return FAIL(c, e->value->line, e->value->column, "%s must be %s, found %s", label, want,
                anim_toml_type_name(e->value->type));
}

static int read_path(rp_ctx *c, const anim_toml_entry *e, const char *label, const char **out)
{
    const anim_toml_value *v = e->value;
    if (v->type != ANIM_TOML_STRING)
        return wrong_type(c, e, label, "a string");
    const char *why = anim_texture_path_spelling_problem(v->u.string.data, v->u.string.len);
    if (why)
        return FAIL(c, v->line, v->column, "%s \"%s\" %s", label, v->u.string.data, why);
    *out = v->u.string.data;
    return 0;
}

static int read_header(rp_ctx *c, const anim_toml_value *root, anim_texture_recipe *r)
{
    if (check_keys(c, root, "the top level", top_keys) < 0)
        return -1;
    const anim_toml_entry *e;
    if (require(c, root, "the recipe", "schema_version", &e) < 0)
        return -1;
    if (e->value->type != ANIM_TOML_INTEGER)
        return wrong_type(c, e, "schema_version", "an integer");
    if (e->value->u.integer != 1)
        return FAIL(c, e->value->line, e->value->column,
                    "schema_version %lld is not supported (this tool reads 1)",
                    (long long)e->value->u.integer);
    if (require(c, root, "the recipe", "schema", &e) < 0)
        return -1;
    if (e->value->type != ANIM_TOML_STRING)
        return wrong_type(c, e, "schema", "a string");
    if (strcmp(e->value->u.string.data, ANIM_TEXTURE_RECIPE_SCHEMA) != 0 ||
        e->value->u.string.len != strlen(ANIM_TEXTURE_RECIPE_SCHEMA))
        return FAIL(c, e->value->line, e->value->column, "schema must be \"%s\"",
                    ANIM_TEXTURE_RECIPE_SCHEMA);
    if (require(c, root, "the recipe", "max_dimension", &e) < 0)
        return -1;
    if (e->value->type != ANIM_TOML_INTEGER)
        return wrong_type(c, e, "max_dimension", "an integer");
    int64_t md = e->value->u.integer;
    if (md < 1 || md > (int64_t)ANIM_TEXTURE_RECIPE_MAX_DIMENSION)
        return FAIL(c, e->value->line, e->value->column,
                    "max_dimension %lld is outside 1..%u", (long long)md,
                    ANIM_TEXTURE_RECIPE_MAX_DIMENSION);
    r->max_dimension = (uint32_t)md;
    e = anim_toml_find(root, "texture_root", strlen("texture_root"));
    if (e) {
        if (read_path(c, e, "texture_root", &r->texture_root) < 0)
            return -1;
        r->root_line = e->value->line;
        r->root_column = e->value->column;
    }
    return 0;
}

static int read_entry(rp_ctx *c, const anim_toml_value *t, uint32_t i,
                      anim_texture_recipe_entry *out)
{
    char where[48];
    snprintf(where, sizeof where, "materials[%u]", (unsigned)i);
    if (t->type != ANIM_TOML_TABLE)
        return FAIL(c, t->line, t->column, "%s must be a table, found %s", where,
                    anim_toml_type_name(t->type));
    out->line = t->line;
    out->column = t->column;
    if (check_keys(c, t, where, entry_keys) < 0)
        return -1;
    char label[96];
    const anim_toml_entry *e;
    if (require(c, t, where, "name", &e) < 0)
        return -1;
    snprintf(label, sizeof label, "%s.name", where);
    if (e->value->type != ANIM_TOML_STRING)
        return wrong_type(c, e, label, "a string");
    if (e->value->u.string.len == 0)
        return FAIL(c, e->value->line, e->value->column, "%s must not be empty", label);
    if (strlen(e->value->u.string.data) != e->value->u.string.len)
        return FAIL(c, e->value->line, e->value->column, "%s contains a NUL character", label);
    out->name = e->value->u.string.data;
    for (int s = 0; s < ANIM_TEXTURE_SLOT_COUNT; s++) {
        const char *key = anim_texture_slot_name(s);
        bool required = s == ANIM_TEXTURE_SLOT_BASE_COLOR || s == ANIM_TEXTURE_SLOT_NORMAL;
        e = anim_toml_find(t, key, strlen(key));
        if (!e && required)
            return require(c, t, where, key, &e);
        if (!e)
            continue;
        snprintf(label, sizeof label, "%s.%s", where, key);
        if (read_path(c, e, label, &out->declared[s]) < 0)
            return -1;
        out->slot_line[s] = e->value->line;
        out->slot_column[s] = e->value->column;
    }
    return 0;
}

/* A repeated name makes the recipe ambiguous by itself, whatever the
 * asset: an operator error at the later entry. Quadratic in the number of
 * entries is fine for a hand-written recipe, and the limit below keeps a
 * generated one bounded. */
#define RECIPE_MAX_ENTRIES 4096u

static int read_materials(rp_ctx *c, const anim_toml_value *root, anim_texture_recipe *r)
{
    const anim_toml_entry *e;
    if (require(c, root, "the recipe", "materials", &e) < 0)
        return -1;
    const anim_toml_value *list = e->value;
    if (list->type != ANIM_TOML_ARRAY)
        return wrong_type(c, e, "materials", "an array of tables");
    if (list->u.array.count == 0)
        return FAIL(c, list->line, list->column, "materials must list at least one material");
    if (list->u.array.count > RECIPE_MAX_ENTRIES)
        return anim_texture_recipe_fail(c->err, ANIM_ERR_LIMIT, c->path, list->line,
                                        list->column, "materials lists %zu entries, more than %u",
                                        list->u.array.count, RECIPE_MAX_ENTRIES);
    uint32_t n = (uint32_t)list->u.array.count;
    r->entries = anim_arena_calloc(c->arena, n, sizeof *r->entries);
    if (!r->entries)
        return anim_error_set(c->err, ANIM_ERR_NOMEM, "bad recipe %s: out of memory", c->path);
    r->entry_count = n;
    for (uint32_t i = 0; i < n; i++) {
        if (read_entry(c, list->u.array.items[i], i, &r->entries[i]) < 0)
            return -1;
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(r->entries[j].name, r->entries[i].name) == 0)
                return FAIL(c, r->entries[i].line, r->entries[i].column,
                            "materials[%u].name \"%s\" repeats materials[%u]", (unsigned)i,
                            r->entries[i].name, (unsigned)j);
    }
    return 0;
}

/* Every declared image must be a PNG or JPEG whose header is readable and
 * within the decode bound; the pixels are decoded only by apply. */
static int probe_images(rp_ctx *c, const anim_texture_recipe *r)
{
    for (uint32_t i = 0; i < r->entry_count; i++) {
        const anim_texture_recipe_entry *e = &r->entries[i];
        for (int s = 0; s < ANIM_TEXTURE_SLOT_COUNT; s++) {
            if (!e->resolved[s])
                continue;
            char what[ANIM_ERROR_MESSAGE_MAX / 2];
            snprintf(what, sizeof what, "materials[%u].%s \"%s\"", (unsigned)i,
                     anim_texture_slot_name(s), e->declared[s]);
            /* A scratch arena per image: up to 64 MiB each, needed only
             * for the probe. */
            anim_arena *scratch = anim_arena_new();
            uint8_t *bytes = NULL;
            size_t len = 0;
            anim_texture_info info;
            int rc = scratch ? anim_read_file(e->resolved[s], ANIM_TEXTURE_MAX_FILE_BYTES,
                                              scratch, &bytes, &len, c->err)
                             : anim_error_set(c->err, ANIM_ERR_NOMEM, "out of memory");
            if (rc == 0)
                rc = anim_texture_probe(bytes, len, what, &info, c->err);
            anim_arena_free(scratch);
            if (rc < 0) {
                anim_error_prefix(c->err, "bad recipe %s: line %u column %u", c->path,
                                  (unsigned)e->slot_line[s], (unsigned)e->slot_column[s]);
                return -1;
            }
        }
    }
    return 0;
}

int anim_texture_recipe_load(const char *path, anim_arena *arena, anim_texture_recipe **out,
                             anim_error *err)
{
    *out = NULL;
    rp_ctx c = {path, arena, err};
    anim_texture_recipe *r = anim_arena_calloc(arena, 1, sizeof *r);
    if (r)
        r->path = anim_arena_strdup(arena, path);
    if (!r || !r->path)
        return anim_error_set(err, ANIM_ERR_NOMEM, "bad recipe %s: out of memory", path);
    /* stat before open: a FIFO or a directory is refused without
     * blocking on it. */
    struct stat st;
    if (stat(path, &st) != 0)
        return anim_error_set(err, ANIM_ERR_IO, "cannot read recipe %s: %s", path,
                              strerror(errno));
    if (!S_ISREG(st.st_mode))
        return anim_error_set(err, ANIM_ERR_IO, "cannot read recipe %s: not a regular file",
                              path);
    if ((uint64_t)st.st_size > ANIM_TEXTURE_RECIPE_MAX_BYTES)
        return anim_error_set(err, ANIM_ERR_LIMIT,
                              "bad recipe %s: %lld bytes, more than the %zu-byte limit", path,
                              (long long)st.st_size, ANIM_TEXTURE_RECIPE_MAX_BYTES);
    uint8_t *text = NULL;
    size_t len = 0;
    if (anim_read_file(path, ANIM_TEXTURE_RECIPE_MAX_BYTES, arena, &text, &len, err) < 0) {
        anim_error_prefix(err, "cannot read recipe");
        return -1;
    }
    anim_toml_value *root = anim_toml_parse(arena, (const char *)text, len, err);
    if (!root) {
        anim_error_prefix(err, "bad recipe %s", path);
        return -1;
    }
    if (read_header(&c, root, r) < 0 || read_materials(&c, root, r) < 0 ||
        anim_texture_recipe_resolve(r, arena, err) < 0 || probe_images(&c, r) < 0)
        return -1;
    *out = r;
    return 0;
}
