/* --format text: the same value as the JSON, line by line, for reading.
 * Every asset-derived string is escaped (names and URIs debug-quoted, the
 * path as a text atom), so a name cannot move the cursor or reorder the
 * line. Presentation only: it adds no conclusion the JSON lacks. */
#include <stdio.h>
#include <string.h>

#include "animsmith/numfmt.h"
#include "animsmith/text.h"
#include "generate/addressability.h"

void addr_put_name(anim_strbuf *out, addr_text t)
{
    if (t.s)
        anim_text_debug_quote(out, t.s, t.len);
    else
        anim_strbuf_puts(out, "(none)");
}

static void put_index(anim_strbuf *out, uint32_t v)
{
    if (v == ANIM_NONE)
        anim_strbuf_puts(out, "none");
    else
        anim_strbuf_printf(out, "%u", v);
}

static void put_cstr(anim_strbuf *out, const char *s)
{
    anim_text_debug_quote(out, s, strlen(s));
}

static void put_indices(anim_strbuf *out, const uint32_t *v, uint32_t n)
{
    if (n == 0)
        anim_strbuf_puts(out, "none");
    for (uint32_t i = 0; i < n; i++)
        anim_strbuf_printf(out, "%s%u", i ? " " : "", v[i]);
}

static void put_reasons(anim_strbuf *out, const addr_reasons *r)
{
    for (uint32_t i = 0; i < r->count; i++)
        anim_strbuf_printf(out, "%s%s", i ? ", " : "", r->codes[i]);
}

static void put_field(anim_strbuf *out, const anim_field *f)
{
    switch (f->kind) {
    case ANIM_FIELD_TEXT: put_cstr(out, f->text ? f->text : ""); break;
    case ANIM_FIELD_NUMBER: anim_strbuf_put_f64_json(out, f->number); break;
    case ANIM_FIELD_INT: anim_strbuf_printf(out, "%lld", (long long)f->integer); break;
    case ANIM_FIELD_BOOL: anim_strbuf_puts(out, f->boolean ? "true" : "false"); break;
    default: anim_strbuf_puts(out, "null"); break;
    }
}

static void text_inventory(anim_strbuf *out, const addr_inventory *inv)
{
    anim_strbuf_printf(out, "  inventory identity: %s\n", inv->identity);
    anim_strbuf_printf(out, "  animations: %u of %u retained, coverage %s", inv->animation_count,
                       inv->source_animation_count, addr_coverage_name(inv->coverage));
    if (inv->coverage_reason)
        anim_strbuf_printf(out, " (%s)", inv->coverage_reason);
    anim_strbuf_putc(out, '\n');
    for (uint32_t a = 0; a < inv->animation_count; a++) {
        const addr_animation *an = &inv->animations[a];
        anim_strbuf_printf(out, "    animation %u ", an->index);
        addr_put_name(out, an->name);
        anim_strbuf_printf(out, ": %u channel(s)\n", an->channel_count);
        for (uint32_t c = 0; c < an->channel_count; c++) {
            const addr_channel *ch = &an->channels[c];
            anim_strbuf_printf(out, "      channel %u: sampler ", ch->index);
            put_index(out, ch->sampler);
            anim_strbuf_puts(out, ", target node ");
            put_index(out, ch->node);
            anim_strbuf_puts(out, " path ");
            addr_put_name(out, ch->path);
            anim_strbuf_puts(out, ", input accessor ");
            put_index(out, ch->input_accessor);
            anim_strbuf_puts(out, ", output accessor ");
            put_index(out, ch->output_accessor);
            anim_strbuf_puts(out, ", interpolation ");
            addr_put_name(out, ch->interpolation);
            anim_strbuf_putc(out, '\n');
        }
    }
    const addr_closure *cl = &inv->closure;
    anim_strbuf_printf(out, "  dependency closure: %s, %u file(s)\n", addr_coverage_name(cl->state),
                       cl->count);
    for (uint32_t i = 0; i < cl->count; i++) {
        const addr_closure_file *f = &cl->files[i];
        anim_strbuf_printf(out, "    %s ", f->role);
        if (f->uri)
            put_cstr(out, f->uri);
        else
            anim_text_atom(out, f->path ? f->path : "", f->path ? strlen(f->path) : 0);
        if (f->readable)
            anim_strbuf_printf(out, ": sha256 %s, %llu bytes\n", f->sha256,
                               (unsigned long long)f->bytes);
        else
            anim_strbuf_puts(out, ": not readable\n");
    }
}

static void text_evaluation(anim_strbuf *out, const addr_bevy_eval *e)
{
    const anim_check_record *rec = e->record;
    anim_strbuf_printf(out, "    %s: %s, %s, %s, evaluation %s; %u available, %u "
                            "required-unavailable facet(s)",
                       rec->check_id, rec->selected ? "selected" : "unselected",
                       rec->enabled ? "enabled" : "disabled",
                       rec->applicable ? "applicable" : "not applicable",
                       anim_evaluation_name(rec->evaluation), e->available, e->unavailable);
    if (rec->facets_omitted)
        anim_strbuf_printf(out, " (%u omitted past the facet budget)", rec->facets_omitted);
    anim_strbuf_putc(out, '\n');
    for (uint32_t i = 0; i < rec->facet_count; i++) {
        const anim_prediction_facet *f = &rec->facets[i];
        anim_strbuf_puts(out, "      ");
        anim_strbuf_puts(out, f->scope.code);
        if (f->scope.subject) {
            anim_strbuf_putc(out, ' ');
            put_cstr(out, f->scope.subject);
        }
        anim_strbuf_printf(out, ": %s", anim_facet_state_name(f->state));
        if (f->state == ANIM_FACET_AVAILABLE) {
            anim_strbuf_printf(out, " %s", f->result_kind ? f->result_kind : "");
            for (uint32_t r = 0; r < f->result_count; r++) {
                anim_strbuf_printf(out, "%s%s ", r ? ", " : " (", f->result[r].key);
                put_field(out, &f->result[r]);
            }
            if (f->result_count)
                anim_strbuf_putc(out, ')');
        } else {
            for (uint32_t r = 0; r < f->reason_count; r++)
                anim_strbuf_printf(out, "%s%s", r ? ", " : " (", f->reasons[r]);
            if (f->reason_count)
                anim_strbuf_putc(out, ')');
        }
        anim_strbuf_putc(out, '\n');
    }
    for (uint32_t g = 0; g < rec->gap_count; g++) {
        anim_strbuf_printf(out, "      gap %s: ", rec->gaps[g].code);
        const char *m = rec->gaps[g].message ? rec->gaps[g].message : "";
        anim_text_atom(out, m, strlen(m));
        anim_strbuf_putc(out, '\n');
    }
}

static void put_setting(anim_strbuf *out, const char *key, const addr_setting *s, bool word)
{
    anim_strbuf_printf(out, "%s ", key);
    if (!s->known)
        anim_strbuf_puts(out, "unresolved");
    else if (word)
        put_cstr(out, s->text ? s->text : "");
    else
        anim_strbuf_puts(out, s->value ? "true" : "false");
    if (s->known)
        anim_strbuf_printf(out, " (%s)", s->origin);
}

static void put_domain(anim_strbuf *out, const char *name, const addr_domain *d)
{
    anim_strbuf_printf(out, "%s %u of %u %s", name, d->rows, d->source_rows,
                       addr_coverage_name(d->state));
    if (d->reason)
        anim_strbuf_printf(out, " (%s)", d->reason);
}

static void text_raw(anim_strbuf *out, const addr_raw *raw)
{
    anim_strbuf_puts(out, "  scene inventory: ");
    put_domain(out, "scenes", &raw->scene_domain);
    put_domain(out, ", nodes", &raw->node_domain);
    put_domain(out, ", skins", &raw->skin_domain);
    put_domain(out, ", attachments", &raw->attachment_domain);
    put_domain(out, ", paths", &raw->path_domain);
    anim_strbuf_puts(out, "; default scene ");
    put_index(out, raw->default_scene);
    anim_strbuf_putc(out, '\n');
    for (uint32_t i = 0; i < raw->scene_domain.rows; i++) {
        anim_strbuf_printf(out, "    scene %u ", raw->scenes[i].index);
        addr_put_name(out, raw->scenes[i].name);
        anim_strbuf_puts(out, ": roots ");
        put_indices(out, raw->scenes[i].roots, raw->scenes[i].root_count);
        anim_strbuf_putc(out, '\n');
    }
    for (uint32_t i = 0; i < raw->node_domain.rows; i++) {
        const addr_node *n = &raw->nodes[i];
        anim_strbuf_printf(out, "    node %u ", n->index);
        addr_put_name(out, n->name);
        anim_strbuf_puts(out, ": parent ");
        put_index(out, n->parent);
        anim_strbuf_puts(out, ", children ");
        put_indices(out, n->children, n->child_count);
        anim_strbuf_puts(out, ", mesh ");
        put_index(out, n->mesh);
        anim_strbuf_puts(out, ", skin ");
        put_index(out, n->skin);
        anim_strbuf_putc(out, '\n');
    }
    for (uint32_t i = 0; i < raw->skin_domain.rows; i++) {
        const addr_skin *s = &raw->skins[i];
        anim_strbuf_printf(out, "    skin %u ", s->index);
        addr_put_name(out, s->name);
        anim_strbuf_puts(out, ": joints ");
        put_indices(out, s->joints, s->joint_count);
        anim_strbuf_puts(out, ", skeleton ");
        put_index(out, s->skeleton);
        anim_strbuf_puts(out, ", inverse bind accessor ");
        put_index(out, s->inverse_bind_accessor);
        anim_strbuf_putc(out, '\n');
    }
    for (uint32_t i = 0; i < raw->attachment_domain.rows; i++)
        anim_strbuf_printf(out, "    attachment: node %u skin %u\n", raw->attachments[i].node,
                           raw->attachments[i].skin);
    for (uint32_t i = 0; i < raw->path_domain.rows; i++) {
        anim_strbuf_printf(out, "    path: scene %u node %u: ", raw->paths[i].scene,
                           raw->paths[i].node);
        put_indices(out, raw->paths[i].nodes, raw->paths[i].length);
        anim_strbuf_putc(out, '\n');
    }
}

static void text_map(anim_strbuf *out, const char *name, const addr_named_map *m,
                     const char *label)
{
    anim_strbuf_printf(out, "    named map %s: %s", name, addr_state_name(m->state));
    if (m->state != ADDR_AVAILABLE) {
        anim_strbuf_puts(out, " (");
        put_reasons(out, &m->reasons);
        anim_strbuf_puts(out, ")\n");
        return;
    }
    anim_strbuf_printf(out, ", %u winner(s)\n", m->count);
    for (uint32_t i = 0; i < m->count; i++) {
        anim_strbuf_puts(out, "      ");
        addr_put_name(out, m->winners[i].name);
        anim_strbuf_printf(out, " -> %s%u\n", label, m->winners[i].index);
    }
}

static void text_projection(anim_strbuf *out, const addr_raw *raw, const addr_projection *p)
{
    anim_strbuf_puts(out, "    settings: ");
    put_setting(out, "bevy_animation_feature", &p->feature, false);
    put_setting(out, ", load_animations", &p->load_animations, false);
    put_setting(out, ", target_pointer_width", &p->pointer_width, true);
    anim_strbuf_putc(out, '\n');
    anim_strbuf_printf(out, "    labels: %s\n", p->label_coverage == ADDR_AVAILABLE
                                                    ? "complete"
                                                    : "required_unavailable (evidence_incomplete)");
    for (uint32_t i = 0; i < raw->scene_domain.rows; i++)
        anim_strbuf_printf(out, "      Scene%u\n", raw->scenes[i].index);
    if (p->default_route == ADDR_AVAILABLE)
        anim_strbuf_printf(out, "      default scene route: Scene%u\n", raw->default_scene);
    else
        anim_strbuf_puts(out, "      default scene route: absent\n");
    for (uint32_t i = 0; i < p->skin_count; i++) {
        const addr_skin_labels *l = &p->skins[i];
        anim_strbuf_printf(out, "      Skin%u/InverseBindMatrices (%s); Skin%u: %s", l->skin,
                           l->identity_fallback ? "identity fallback" : "accessor", l->skin,
                           addr_state_name(l->skin_state));
        if (l->skin_state == ADDR_REQUIRED_UNAVAILABLE) {
            anim_strbuf_puts(out, " (");
            put_reasons(out, &l->reasons);
            anim_strbuf_putc(out, ')');
        }
        anim_strbuf_putc(out, '\n');
    }
    text_map(out, "scenes", &p->scene_map, "Scene");
    text_map(out, "animations", &p->animation_map, "Animation");
    text_map(out, "skins", &p->skin_map, "Skin");
    for (uint32_t i = 0; i < p->target_count; i++) {
        const addr_target *t = &p->targets[i];
        anim_strbuf_printf(out, "    target node %u: %s", t->node, addr_state_name(t->state));
        if (t->state == ADDR_AVAILABLE) {
            anim_strbuf_puts(out, ", path");
            for (uint32_t s = 0; s < t->segment_count; s++) {
                anim_strbuf_puts(out, s ? " / " : " ");
                addr_put_name(out, t->segments[s]);
            }
            anim_strbuf_printf(out, ", target id %s", t->id);
        } else {
            anim_strbuf_puts(out, " (");
            put_reasons(out, &t->reasons);
            anim_strbuf_putc(out, ')');
        }
        anim_strbuf_puts(out, "; from");
        for (uint32_t c = 0; c < t->contrib_count; c++)
            anim_strbuf_printf(out, "%s animation %u channel %u", c ? "," : "",
                               t->contrib[c].animation, t->contrib[c].channel);
        anim_strbuf_putc(out, '\n');
    }
    anim_strbuf_printf(out, "    target coverage: %s",
                       p->target_coverage == ADDR_AVAILABLE ? "complete" : "required_unavailable");
    if (p->target_coverage_reason)
        anim_strbuf_printf(out, " (%s)", p->target_coverage_reason);
    anim_strbuf_putc(out, '\n');
}

void addr_render_text(const addr_doc *d, anim_strbuf *out)
{
    const addr_inventory *inv = &d->inventory;
    anim_text_atom(out, inv->path ? inv->path : "", inv->path ? strlen(inv->path) : 0);
    anim_strbuf_printf(out, ": %s\n", d->version == 2 ? ADDR_V2_SCHEMA : ADDR_V1_SCHEMA);
    anim_strbuf_printf(out, "  input: sha256 %s, %llu bytes\n", inv->sha256,
                       (unsigned long long)inv->bytes);
    text_inventory(out, inv);
    if (d->version == 2)
        text_raw(out, &d->raw);
    if (!d->has_bevy) {
        anim_strbuf_puts(out, "  bevy: none\n");
        return;
    }
    const anim_engine_profile *p = anim_engine_run_profile(d->bevy.file.engine);
    anim_strbuf_printf(out, "  bevy: %s %s revision %u, %s\n", p->profile, p->engine_version,
                       p->revision, p->importer);
    text_evaluation(out, &d->bevy);
    if (d->version == 2)
        text_projection(out, &d->raw, &d->projection);
}
