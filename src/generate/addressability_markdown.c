/* --format markdown: the same value as the JSON as a Markdown page (a CI
 * comment, a review note). Every asset-derived string sits in a code span
 * inside a table cell and is flattened the way lint's Markdown cells are:
 * line breaks become spaces, other presentation controls their visible
 * text-atom escapes, `\` doubles, a backtick becomes `'`, `|` becomes `\|`.
 * Presentation only: no conclusion the JSON lacks. */
#include <stdio.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "animsmith/utf8.h"
#include "generate/addressability.h"

static void md_cell(anim_strbuf *out, const char *s, size_t len)
{
    anim_text_markdown_cell(out, s, len);
}

/* A code-span cell: `text`; an empty string is the word (empty), since an
 * empty code span would open a longer one. */
static void md_code(anim_strbuf *out, const char *s, size_t len)
{
    if (len == 0) {
        anim_strbuf_puts(out, "(empty)");
        return;
    }
    anim_strbuf_putc(out, '`');
    md_cell(out, s, len);
    anim_strbuf_putc(out, '`');
}

static void md_text(anim_strbuf *out, addr_text t)
{
    if (t.s)
        md_code(out, t.s, t.len);
    else
        anim_strbuf_puts(out, "(none)");
}

static void md_cstr(anim_strbuf *out, const char *s)
{
    md_code(out, s, strlen(s));
}

static void md_index(anim_strbuf *out, uint32_t v)
{
    if (v == ANIM_NONE)
        anim_strbuf_puts(out, "none");
    else
        anim_strbuf_printf(out, "%u", v);
}

static void md_indices(anim_strbuf *out, const uint32_t *v, uint32_t n)
{
    if (n == 0)
        anim_strbuf_puts(out, "none");
    for (uint32_t i = 0; i < n; i++)
        anim_strbuf_printf(out, "%s%u", i ? ", " : "", v[i]);
}

static void md_reasons(anim_strbuf *out, const addr_reasons *r)
{
    for (uint32_t i = 0; i < r->count; i++)
        anim_strbuf_printf(out, "%s`%s`", i ? ", " : "", r->codes[i]);
}

static void md_inventory(anim_strbuf *out, const addr_inventory *inv)
{
    anim_strbuf_printf(out, "### Animation inventory\n\nIdentity `%s` · coverage **%s**",
                       inv->identity, addr_coverage_name(inv->coverage));
    if (inv->coverage_reason)
        anim_strbuf_printf(out, " (`%s`)", inv->coverage_reason);
    anim_strbuf_printf(out, " · %u of %u animation(s) retained\n\n", inv->animation_count,
                       inv->source_animation_count);
    if (inv->animation_count) {
        anim_strbuf_puts(out, "| Animation | Name | Channel | Sampler | Node | Path | Input | "
                              "Output | Interpolation |\n|---|---|---|---|---|---|---|---|---|\n");
        for (uint32_t a = 0; a < inv->animation_count; a++) {
            const addr_animation *an = &inv->animations[a];
            if (an->channel_count == 0) {
                anim_strbuf_printf(out, "| %u | ", an->index);
                md_text(out, an->name);
                anim_strbuf_puts(out, " | none | | | | | | |\n");
            }
            for (uint32_t c = 0; c < an->channel_count; c++) {
                const addr_channel *ch = &an->channels[c];
                anim_strbuf_printf(out, "| %u | ", an->index);
                md_text(out, an->name);
                anim_strbuf_printf(out, " | %u | ", ch->index);
                md_index(out, ch->sampler);
                anim_strbuf_puts(out, " | ");
                md_index(out, ch->node);
                anim_strbuf_puts(out, " | ");
                md_text(out, ch->path);
                anim_strbuf_puts(out, " | ");
                md_index(out, ch->input_accessor);
                anim_strbuf_puts(out, " | ");
                md_index(out, ch->output_accessor);
                anim_strbuf_puts(out, " | ");
                md_text(out, ch->interpolation);
                anim_strbuf_puts(out, " |\n");
            }
        }
        anim_strbuf_putc(out, '\n');
    }
    const addr_closure *cl = &inv->closure;
    anim_strbuf_printf(out, "Dependency closure **%s**:\n\n| Role | File | SHA-256 | Bytes |\n"
                            "|---|---|---|---|\n",
                       addr_coverage_name(cl->state));
    for (uint32_t i = 0; i < cl->count; i++) {
        const addr_closure_file *f = &cl->files[i];
        anim_strbuf_printf(out, "| %s | ", f->role);
        md_cstr(out, f->uri ? f->uri : f->path ? f->path : "");
        if (f->readable)
            anim_strbuf_printf(out, " | `%s` | %llu |\n", f->sha256, (unsigned long long)f->bytes);
        else
            anim_strbuf_puts(out, " | not readable | |\n");
    }
    anim_strbuf_putc(out, '\n');
}

static void md_field(anim_strbuf *out, const anim_field *f)
{
    switch (f->kind) {
    case ANIM_FIELD_TEXT: md_cstr(out, f->text ? f->text : ""); break;
    case ANIM_FIELD_NUMBER: anim_strbuf_put_f64_json(out, f->number); break;
    case ANIM_FIELD_INT: anim_strbuf_printf(out, "%lld", (long long)f->integer); break;
    case ANIM_FIELD_BOOL: anim_strbuf_puts(out, f->boolean ? "true" : "false"); break;
    default: anim_strbuf_puts(out, "null"); break;
    }
}

static void md_evaluation(anim_strbuf *out, const addr_bevy_eval *e)
{
    const anim_check_record *rec = e->record;
    anim_strbuf_printf(out, "Check `%s`: %s, %s, %s, evaluation **%s** · %u available, %u "
                            "required-unavailable facet(s)",
                       rec->check_id, rec->selected ? "selected" : "unselected",
                       rec->enabled ? "enabled" : "disabled",
                       rec->applicable ? "applicable" : "not applicable",
                       anim_evaluation_name(rec->evaluation), e->available, e->unavailable);
    if (rec->facets_omitted)
        anim_strbuf_printf(out, " (%u omitted past the facet budget)", rec->facets_omitted);
    anim_strbuf_puts(out, "\n\n");
    if (rec->facet_count) {
        anim_strbuf_puts(out, "| Scope | Subject | State | Result or reasons |\n"
                              "|---|---|---|---|\n");
        for (uint32_t i = 0; i < rec->facet_count; i++) {
            const anim_prediction_facet *f = &rec->facets[i];
            anim_strbuf_printf(out, "| `%s` | ", f->scope.code);
            if (f->scope.subject)
                md_cstr(out, f->scope.subject);
            anim_strbuf_printf(out, " | %s | ", anim_facet_state_name(f->state));
            if (f->state == ANIM_FACET_AVAILABLE) {
                anim_strbuf_printf(out, "`%s`", f->result_kind ? f->result_kind : "");
                for (uint32_t r = 0; r < f->result_count; r++) {
                    anim_strbuf_printf(out, "%s%s ", r ? ", " : ": ", f->result[r].key);
                    md_field(out, &f->result[r]);
                }
            } else {
                for (uint32_t r = 0; r < f->reason_count; r++)
                    anim_strbuf_printf(out, "%s`%s`", r ? ", " : "", f->reasons[r]);
            }
            anim_strbuf_puts(out, " |\n");
        }
        anim_strbuf_putc(out, '\n');
    }
    for (uint32_t g = 0; g < rec->gap_count; g++) {
        anim_strbuf_printf(out, "- gap `%s`: ", rec->gaps[g].code);
        const char *m = rec->gaps[g].message ? rec->gaps[g].message : "";
        md_cell(out, m, strlen(m));
        anim_strbuf_putc(out, '\n');
    }
    if (rec->gap_count)
        anim_strbuf_putc(out, '\n');
}

static void md_domain(anim_strbuf *out, const char *name, const addr_domain *d)
{
    anim_strbuf_printf(out, "| %s | %u | %u | %s | %s |\n", name, d->rows, d->source_rows,
                       addr_coverage_name(d->state), d->reason ? d->reason : "");
}

static void md_raw(anim_strbuf *out, const addr_raw *raw)
{
    anim_strbuf_puts(out, "### Scene inventory\n\n| Domain | Rows | Source rows | Coverage | "
                          "Reason |\n|---|---|---|---|---|\n");
    md_domain(out, "scenes", &raw->scene_domain);
    md_domain(out, "nodes", &raw->node_domain);
    md_domain(out, "skins", &raw->skin_domain);
    md_domain(out, "attachments", &raw->attachment_domain);
    md_domain(out, "paths", &raw->path_domain);
    anim_strbuf_puts(out, "\nDefault scene: ");
    md_index(out, raw->default_scene);
    anim_strbuf_puts(out, "\n\n");
    if (raw->scene_domain.rows) {
        anim_strbuf_puts(out, "| Scene | Name | Roots |\n|---|---|---|\n");
        for (uint32_t i = 0; i < raw->scene_domain.rows; i++) {
            anim_strbuf_printf(out, "| %u | ", raw->scenes[i].index);
            md_text(out, raw->scenes[i].name);
            anim_strbuf_puts(out, " | ");
            md_indices(out, raw->scenes[i].roots, raw->scenes[i].root_count);
            anim_strbuf_puts(out, " |\n");
        }
        anim_strbuf_putc(out, '\n');
    }
    if (raw->node_domain.rows) {
        anim_strbuf_puts(out, "| Node | Name | Parent | Children | Mesh | Skin |\n"
                              "|---|---|---|---|---|---|\n");
        for (uint32_t i = 0; i < raw->node_domain.rows; i++) {
            const addr_node *n = &raw->nodes[i];
            anim_strbuf_printf(out, "| %u | ", n->index);
            md_text(out, n->name);
            anim_strbuf_puts(out, " | ");
            md_index(out, n->parent);
            anim_strbuf_puts(out, " | ");
            md_indices(out, n->children, n->child_count);
            anim_strbuf_puts(out, " | ");
            md_index(out, n->mesh);
            anim_strbuf_puts(out, " | ");
            md_index(out, n->skin);
            anim_strbuf_puts(out, " |\n");
        }
        anim_strbuf_putc(out, '\n');
    }
    if (raw->skin_domain.rows) {
        anim_strbuf_puts(out, "| Skin | Name | Joints | Skeleton | Inverse bind accessor |\n"
                              "|---|---|---|---|---|\n");
        for (uint32_t i = 0; i < raw->skin_domain.rows; i++) {
            const addr_skin *s = &raw->skins[i];
            anim_strbuf_printf(out, "| %u | ", s->index);
            md_text(out, s->name);
            anim_strbuf_puts(out, " | ");
            md_indices(out, s->joints, s->joint_count);
            anim_strbuf_puts(out, " | ");
            md_index(out, s->skeleton);
            anim_strbuf_puts(out, " | ");
            md_index(out, s->inverse_bind_accessor);
            anim_strbuf_puts(out, " |\n");
        }
        anim_strbuf_putc(out, '\n');
    }
    if (raw->attachment_domain.rows) {
        anim_strbuf_puts(out, "| Attached node | Skin |\n|---|---|\n");
        for (uint32_t i = 0; i < raw->attachment_domain.rows; i++)
            anim_strbuf_printf(out, "| %u | %u |\n", raw->attachments[i].node,
                               raw->attachments[i].skin);
        anim_strbuf_putc(out, '\n');
    }
    if (raw->path_domain.rows) {
        anim_strbuf_puts(out, "| Scene | Node | Path nodes |\n|---|---|---|\n");
        for (uint32_t i = 0; i < raw->path_domain.rows; i++) {
            anim_strbuf_printf(out, "| %u | %u | ", raw->paths[i].scene, raw->paths[i].node);
            md_indices(out, raw->paths[i].nodes, raw->paths[i].length);
            anim_strbuf_puts(out, " |\n");
        }
        anim_strbuf_putc(out, '\n');
    }
}

static void md_setting(anim_strbuf *out, const char *key, const addr_setting *s, bool word)
{
    anim_strbuf_printf(out, "| `%s` | ", key);
    if (!s->known)
        anim_strbuf_puts(out, "unresolved | |\n");
    else if (word)
        anim_strbuf_printf(out, "`%s` | %s |\n", s->text ? s->text : "", s->origin);
    else
        anim_strbuf_printf(out, "%s | %s |\n", s->value ? "true" : "false", s->origin);
}

static void md_map(anim_strbuf *out, const char *name, const addr_named_map *m,
                   const char *label)
{
    if (m->state != ADDR_AVAILABLE) {
        anim_strbuf_printf(out, "| %s | required_unavailable: ", name);
        md_reasons(out, &m->reasons);
        anim_strbuf_puts(out, " | |\n");
        return;
    }
    if (m->count == 0)
        anim_strbuf_printf(out, "| %s | (no named entry) | |\n", name);
    for (uint32_t i = 0; i < m->count; i++) {
        anim_strbuf_printf(out, "| %s | ", name);
        md_text(out, m->winners[i].name);
        anim_strbuf_printf(out, " | `%s%u` |\n", label, m->winners[i].index);
    }
}

static void md_projection(anim_strbuf *out, const addr_raw *raw, const addr_projection *p)
{
    anim_strbuf_puts(out, "| Setting | Value | Origin |\n|---|---|---|\n");
    md_setting(out, "bevy_animation_feature", &p->feature, false);
    md_setting(out, "load_animations", &p->load_animations, false);
    md_setting(out, "target_pointer_width", &p->pointer_width, true);
    anim_strbuf_printf(out, "\n#### Labels (%s)\n\n| Label | State |\n|---|---|\n",
                       p->label_coverage == ADDR_AVAILABLE ? "complete" : "required_unavailable");
    for (uint32_t i = 0; i < raw->scene_domain.rows; i++)
        anim_strbuf_printf(out, "| `Scene%u` | available |\n", raw->scenes[i].index);
    if (p->default_route == ADDR_AVAILABLE)
        anim_strbuf_printf(out, "| default scene route to `Scene%u` | available |\n",
                           raw->default_scene);
    else
        anim_strbuf_puts(out, "| default scene route | absent |\n");
    for (uint32_t i = 0; i < p->skin_count; i++) {
        const addr_skin_labels *l = &p->skins[i];
        anim_strbuf_printf(out, "| `Skin%u/InverseBindMatrices` | available (%s) |\n", l->skin,
                           l->identity_fallback ? "identity fallback" : "accessor");
        anim_strbuf_printf(out, "| `Skin%u` | %s", l->skin, addr_state_name(l->skin_state));
        if (l->skin_state == ADDR_REQUIRED_UNAVAILABLE) {
            anim_strbuf_puts(out, ": ");
            md_reasons(out, &l->reasons);
        }
        anim_strbuf_puts(out, " |\n");
    }
    anim_strbuf_puts(out, "\n#### Named maps\n\n| Map | Name | Winner |\n|---|---|---|\n");
    md_map(out, "scenes", &p->scene_map, "Scene");
    md_map(out, "animations", &p->animation_map, "Animation");
    md_map(out, "skins", &p->skin_map, "Skin");
    anim_strbuf_printf(out, "\n#### Animation targets (coverage %s",
                       p->target_coverage == ADDR_AVAILABLE ? "complete" : "required_unavailable");
    if (p->target_coverage_reason)
        anim_strbuf_printf(out, ": `%s`", p->target_coverage_reason);
    anim_strbuf_puts(out, ")\n\n");
    if (p->target_count) {
        anim_strbuf_puts(out, "| Node | State | Name path or reasons | Target id | "
                              "Contributing channels |\n|---|---|---|---|---|\n");
        for (uint32_t i = 0; i < p->target_count; i++) {
            const addr_target *t = &p->targets[i];
            anim_strbuf_printf(out, "| %u | %s | ", t->node, addr_state_name(t->state));
            if (t->state == ADDR_AVAILABLE) {
                for (uint32_t s = 0; s < t->segment_count; s++) {
                    anim_strbuf_puts(out, s ? " / " : "");
                    md_text(out, t->segments[s]);
                }
                anim_strbuf_printf(out, " | `%s` | ", t->id);
            } else {
                md_reasons(out, &t->reasons);
                anim_strbuf_puts(out, " | | ");
            }
            for (uint32_t c = 0; c < t->contrib_count; c++)
                anim_strbuf_printf(out, "%s%u/%u", c ? ", " : "", t->contrib[c].animation,
                                   t->contrib[c].channel);
            anim_strbuf_puts(out, " |\n");
        }
        anim_strbuf_putc(out, '\n');
    }
}

void addr_render_markdown(const addr_doc *d, anim_strbuf *out)
{
    const addr_inventory *inv = &d->inventory;
    anim_strbuf_puts(out, "## ");
    md_cstr(out, inv->path ? inv->path : "");
    anim_strbuf_printf(out, ": glTF addressability\n\nSchema `%s` · input SHA-256 `%s` (%llu "
                            "bytes)\n\n",
                       d->version == 2 ? ADDR_V2_SCHEMA : ADDR_V1_SCHEMA, inv->sha256,
                       (unsigned long long)inv->bytes);
    md_inventory(out, inv);
    if (d->version == 2)
        md_raw(out, &d->raw);
    if (!d->has_bevy) {
        anim_strbuf_puts(out, "### Bevy\n\nNone: no exact Bevy 0.19.0 revision 1 or 3 profile "
                              "is selected.\n");
        return;
    }
    const anim_engine_profile *p = anim_engine_run_profile(d->bevy.file.engine);
    anim_strbuf_printf(out, "### Bevy %s revision %u (`%s`)\n\n", p->engine_version, p->revision,
                       p->importer);
    md_evaluation(out, &d->bevy);
    if (d->version == 2)
        md_projection(out, &d->raw, &d->projection);
}
