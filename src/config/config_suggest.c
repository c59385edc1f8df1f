/* Refusing a name the contract does not know, in the one shape every
 * unknown-name message has: "unknown NOUN "NAME" in TABLE (did you mean
 * "X"?)" when a known name is within two edits, else the known names are
 * listed so the user can pick one without opening the docs. The same
 * suggestion serves the warnings for contract names an input lacks. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/strbuf.h"
#include "animsmith/text.h"
#include "config/config_internal.h"

/* Edit distance, capped: names are short, and a long one gets no
 * suggestion rather than a quadratic cost. */
static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
    enum { MAXK = 48 };
    if (la > MAXK || lb > MAXK)
        return (size_t)-1;
    size_t row[MAXK + 1];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] == b[j - 1] ? 0 : 1);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *cfg_nearest_name(const char *name, size_t len, const char *const *known)
{
    const char *near = NULL;
    size_t near_d = 3; /* suggest only within two edits */
    for (size_t k = 0; known[k]; k++) {
        size_t d = distance(name, len, known[k], strlen(known[k]));
        if (d < near_d) {
            near_d = d;
            near = known[k];
        }
    }
    return near;
}

int cfg_unknown_name(cfg_ctx *c, const anim_toml_entry *e, const char *noun,
                     const char *table_label, const char *const *known)
{
    const char *q = cfg_quote(c, e->key, e->key_len);
    const char *near = cfg_nearest_name(e->key, e->key_len, known);
    if (near)
        return cfg_fail(c, e->line, e->column, "unknown %s %s in %s (did you mean \"%s\"?)", noun, q,
                        table_label, near);
    anim_strbuf sb = ANIM_STRBUF_INIT;
    for (size_t k = 0; known[k]; k++)
        anim_strbuf_printf(&sb, "%s%s", k ? ", " : "", known[k]);
    /* The list only decorates the message: without memory it is dropped,
     * the refusal stands. */
    int rc = cfg_fail(c, e->line, e->column, "unknown %s %s in %s (known %ss: %s)", noun, q,
                      table_label, noun, sb.failed || !sb.data ? "?" : sb.data);
    anim_strbuf_free(&sb);
    return rc;
}

/* Contract names an asset lacks (config.h anim_contract_usage). The
 * suggestion lists are built per asset and freed with it; only copies of
 * the suggested names outlive it. */

static bool bare_key(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return false;
    return true;
}

/* The table header as the user wrote it: [clips.walk], [clips."run *"]. */
static void put_clip_table(anim_strbuf *out, const char *selector)
{
    anim_strbuf_puts(out, "[clips.");
    if (bare_key(selector))
        anim_strbuf_puts(out, selector);
    else
        anim_text_quote_toml(out, selector, strlen(selector));
    anim_strbuf_putc(out, ']');
}

static void put_suggestion(anim_strbuf *out, const char *near)
{
    if (!near)
        return;
    anim_strbuf_puts(out, " (did you mean ");
    anim_text_quote_toml(out, near, strlen(near));
    anim_strbuf_puts(out, "?)");
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static void role_warnings(const anim_config *cfg, const anim_doc *doc, const char *path,
                          const char **bone_names, anim_strbuf *out)
{
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        const char *want = cfg->rig_roles[r];
        if (!want)
            continue;
        bool found = false;
        for (uint32_t b = 0; b < doc->bone_count && !found; b++)
            found = strcmp(doc->bones[b].name, want) == 0;
        if (found)
            continue;
        anim_strbuf_printf(out, "[rig.roles] %s = ", anim_role_name((anim_role)r));
        anim_text_quote_toml(out, want, strlen(want));
        anim_strbuf_puts(out, " names no bone of ");
        anim_text_atom(out, path, strlen(path));
        put_suggestion(out, cfg_nearest_name(want, strlen(want), bone_names));
        anim_strbuf_putc(out, '\n');
    }
}

int anim_contract_usage_collect(const anim_config *cfg, const anim_doc *doc, const char *path,
                                anim_contract_usage *out, anim_error *err)
{
    memset(out, 0, sizeof *out);
    uint32_t n = cfg->clip_count;
    size_t names_len = (doc->clip_count > doc->bone_count ? doc->clip_count : doc->bone_count);
    const char **names = malloc((names_len + 1) * sizeof *names);
    out->selector_matched = calloc(n ? n : 1, sizeof *out->selector_matched);
    out->selector_nearest = calloc(n ? n : 1, sizeof *out->selector_nearest);
    out->selector_count = n;
    out->has_clips = doc->clip_count > 0;
    bool oom = !names || !out->selector_matched || !out->selector_nearest;
    if (!oom) {
        for (uint32_t c = 0; c < doc->clip_count; c++)
            names[c] = doc->clips[c].name;
        names[doc->clip_count] = NULL;
    }
    for (uint32_t s = 0; !oom && s < n; s++) {
        const char *sel = cfg->clips[s].selector;
        for (uint32_t c = 0; c < doc->clip_count && !out->selector_matched[s]; c++)
            out->selector_matched[s] = anim_glob_match(sel, doc->clips[c].name);
        const char *near =
            out->selector_matched[s] ? NULL : cfg_nearest_name(sel, strlen(sel), names);
        if (near && !(out->selector_nearest[s] = dup_str(near)))
            oom = true;
    }
    if (!oom) {
        for (uint32_t b = 0; b < doc->bone_count; b++)
            names[b] = doc->bones[b].name;
        names[doc->bone_count] = NULL;
        role_warnings(cfg, doc, path, names, &out->role_warnings);
        oom = out->role_warnings.failed;
    }
    free(names);
    if (oom) {
        anim_contract_usage_free(out);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    return 0;
}

void anim_contract_usage_free(anim_contract_usage *usage)
{
    for (uint32_t s = 0; usage->selector_nearest && s < usage->selector_count; s++)
        free(usage->selector_nearest[s]);
    free(usage->selector_nearest);
    free(usage->selector_matched);
    anim_strbuf_free(&usage->role_warnings);
    memset(usage, 0, sizeof *usage);
}

void anim_contract_warnings(const anim_config *cfg, const anim_contract_usage *usages,
                            const char *const *paths, size_t n, anim_strbuf *out)
{
    size_t with_clips = 0, only = 0;
    for (size_t f = 0; f < n; f++)
        if (usages[f].has_clips && usages[f].selector_matched) {
            with_clips++;
            only = f;
        }
    for (uint32_t s = 0; with_clips && s < cfg->clip_count; s++) {
        bool matched = false;
        const char *near = NULL;
        for (size_t f = 0; f < n && !matched; f++) {
            const anim_contract_usage *u = &usages[f];
            if (!u->has_clips || !u->selector_matched || s >= u->selector_count)
                continue;
            matched = u->selector_matched[s];
            if (!near)
                near = u->selector_nearest[s];
        }
        if (matched)
            continue;
        put_clip_table(out, cfg->clips[s].selector);
        if (with_clips == 1) {
            anim_strbuf_puts(out, " matches no clip of ");
            anim_text_atom(out, paths[only], strlen(paths[only]));
        } else {
            anim_strbuf_printf(out, " matches no clip of the %zu inputs", with_clips);
        }
        put_suggestion(out, near);
        anim_strbuf_putc(out, '\n');
    }
    for (size_t f = 0; f < n; f++)
        if (usages[f].role_warnings.len)
            anim_strbuf_append(out, usages[f].role_warnings.data, usages[f].role_warnings.len);
}
