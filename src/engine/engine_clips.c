/* src/engine/ owns the engine profiles: the frozen importer tuples and
 * their facts, the closed setting vocabularies, and the same-load facts
 * and prediction provenance a run under a profile records (the file map
 * is in engine_internal.h).
 *
 * This file: the clip-scoped engine settings of the clips one file really
 * has, resolved field by field with the contract's own precedence: every
 * matching glob in byte-wise selector order (a later glob overrides an
 * earlier one), then the exact clip name last. A key is taken from the last table that
 * sets it, so [clips."*".engine_settings] can give the defaults and
 * [clips."walk".engine_settings] override one of them.
 *
 * At most ANIM_ENGINE_MAX_SETTING_CLIPS rows are kept; a longer file is
 * marked overflow (partial coverage), never presented as complete. Where
 * the profile requires clip settings (Unity), every real clip must
 * resolve each of them, beyond the retained rows too: a missing one is an
 * operator error naming the file, the clip and the key. */
#include <stdlib.h>
#include <string.h>

#include "animsmith/names.h"
#include "animsmith/strbuf.h"
#include "animsmith/text.h"
#include "engine/engine_internal.h"

typedef struct {
    const anim_engine_setting_def *def;
    const anim_toml_value *value; /* NULL: unresolved */
    const char *selector;
} pick;

/* Overlays the keys one selector's engine_settings table sets. */
static void overlay(const anim_engine_profile *p, const anim_clip_selector *sel, pick *picks,
                    const anim_engine_setting_def **clip_defs, size_t k)
{
    const anim_toml_value *t = sel->expect.engine_settings;
    if (!t || t->type != ANIM_TOML_TABLE)
        return;
    for (size_t i = 0; i < t->u.table.count; i++) {
        const anim_toml_entry *e = &t->u.table.entries[i];
        const anim_engine_setting_def *def = anim_engine_setting_find(p, e->key, e->key_len);
        for (size_t j = 0; def && j < k; j++)
            if (clip_defs[j] == def) {
                picks[j].value = e->value;
                picks[j].selector = sel->selector;
            }
    }
}

static void resolve_one(const anim_engine_profile *p, const anim_config *cfg, const char *name,
                        pick *picks, const anim_engine_setting_def **clip_defs, size_t k)
{
    for (size_t j = 0; j < k; j++) {
        picks[j].def = clip_defs[j];
        picks[j].value = NULL;
        picks[j].selector = NULL;
    }
    const anim_clip_selector *exact = NULL;
    for (uint32_t i = 0; i < cfg->clip_count; i++) {
        const anim_clip_selector *sel = &cfg->clips[i];
        if (strcmp(sel->selector, name) == 0)
            exact = sel;
        else if (anim_glob_match(sel->selector, name))
            overlay(p, sel, picks, clip_defs, k);
    }
    if (exact)
        overlay(p, exact, picks, clip_defs, k);
}

static int missing_setting(const anim_engine_run *run, const char *clip, const char *key,
                           anim_error *err)
{
    anim_strbuf q = ANIM_STRBUF_INIT;
    anim_text_quote_toml(&q, clip, strlen(clip));
    const char *quoted = q.failed || !q.data ? "\"?\"" : q.data;
    anim_error_set(err, ANIM_ERR_USAGE,
                   "%s: clip %s: clips.%s.engine_settings.%s is required by engine profile %s "
                   "revision %u on every clip, and no [clips] selector matching the clip sets it",
                   run->input_path, quoted, quoted, key, run->profile->profile,
                   (unsigned)run->profile->revision);
    anim_strbuf_free(&q);
    return -1;
}

/* Marks the rows whose source name another clip shares. */
static int mark_duplicates(const anim_doc *doc, anim_engine_clip_settings *rows, uint32_t keep,
                           anim_error *err)
{
    if (doc->clip_count < 2)
        return 0;
    const char **names = malloc(doc->clip_count * sizeof *names);
    if (!names)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t c = 0; c < doc->clip_count; c++)
        names[c] = doc->clips[c].base_name ? doc->clips[c].base_name : doc->clips[c].name;
    uint32_t ordered = 0;
    uint32_t *order = anim_names_order(names, doc->clip_count, &ordered);
    if (!order) {
        free(names);
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    }
    for (uint32_t k = 1; k < ordered; k++) {
        uint32_t a = order[k - 1], b = order[k];
        if (strcmp(names[a], names[b]) != 0)
            continue;
        if (a < keep)
            rows[a].duplicate_name = true;
        if (b < keep)
            rows[b].duplicate_name = true;
    }
    free(order);
    free(names);
    return 0;
}

int engine_clips_resolve(anim_engine_run *run, const anim_config *cfg, const anim_doc *doc,
                         anim_arena *arena, anim_error *err)
{
    const anim_engine_profile *p = run->profile;
    size_t n = 0;
    const anim_engine_setting_def *defs = anim_engine_settings_of(p, &n);
    const anim_engine_setting_def *clip_defs[8];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof clip_defs / sizeof clip_defs[0]; i++)
        if (defs[i].scope == ANIM_ENGINE_SCOPE_CLIP)
            clip_defs[k++] = &defs[i];
    bool required_everywhere =
        p->family == ANIM_ENGINE_UNITY_GENERIC || p->family == ANIM_ENGINE_UNITY_HUMANOID;

    uint32_t keep = doc->clip_count < ANIM_ENGINE_MAX_SETTING_CLIPS
                        ? doc->clip_count
                        : ANIM_ENGINE_MAX_SETTING_CLIPS;
    run->source_clip_count = doc->clip_count;
    run->overflow = doc->clip_count > ANIM_ENGINE_MAX_SETTING_CLIPS;
    run->clip_count = keep;
    run->clips = anim_arena_calloc(arena, keep ? keep : 1, sizeof *run->clips);
    if (!run->clips)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    pick picks[8];
    for (uint32_t c = 0; c < doc->clip_count; c++) {
        const anim_clip *clip = &doc->clips[c];
        resolve_one(p, cfg, clip->name, picks, clip_defs, k);
        bool complete = true;
        for (size_t j = 0; j < k; j++)
            if (!picks[j].value && clip_defs[j]->required) {
                if (required_everywhere)
                    return missing_setting(run, clip->name, clip_defs[j]->key, err);
                complete = false;
            }
        if (c >= keep)
            continue;
        anim_engine_clip_settings *row = &run->clips[c];
        row->clip = clip->name;
        row->clip_index = c;
        row->complete = complete;
        anim_engine_setting_value *values =
            k ? anim_arena_calloc(arena, k, sizeof *values) : NULL;
        if (k && !values)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        uint32_t count = 0;
        for (size_t j = 0; j < k; j++) {
            if (!picks[j].value)
                continue;
            /* Validated when the contract was loaded: a refusal here
             * would be a bug, and leaves the key unresolved. */
            anim_engine_setting_value *v = &values[count];
            if (anim_engine_setting_parse(p, clip_defs[j], picks[j].value, arena, v)) {
                row->complete = false;
                continue;
            }
            v->selector = picks[j].selector;
            count++;
        }
        row->values = values;
        row->value_count = count;
    }
    return mark_duplicates(doc, run->clips, keep, err);
}
