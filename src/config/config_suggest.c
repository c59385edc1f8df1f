/* Refusing a name the contract does not know, in the one shape every
 * unknown-name message has: "unknown NOUN "NAME" in TABLE (did you mean
 * "X"?)" when a known name is within two edits, else the known names are
 * listed so the user can pick one without opening the docs. */
#include <string.h>

#include "animsmith/strbuf.h"
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
