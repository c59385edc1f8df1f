/* Role resolution: binds each role of a profile to one bone by name.
 *
 * Matching runs in stages over the whole skeleton; the first stage with any
 * candidate decides the role:
 *   1. exact, case-sensitive equality              -> "exact"
 *   2. for a bone with a namespace, equality after stripping everything
 *      through the last ':' from the bone and the wanted name
 *                                                  -> "namespace_stripped"
 *   3. ASCII case-insensitive equality of the names, or of the stripped
 *      names when the bone has a namespace        -> "ascii_case_folded"
 * A stage with two or more candidates makes the role ambiguous and leaves
 * it unbound: taking the first bone in bone order would be a silent
 * guess, so the output-v11 contract reports the ambiguity instead. Stage 2 is an
 * exact comparison too, so its ambiguity counts as ambiguous_exact_match. */
#include <string.h>

#include "animsmith/rig.h"
#include "animsmith/text.h"
#include "rig/profiles.h"

typedef enum { STAGE_EXACT, STAGE_NAMESPACE, STAGE_FOLDED, STAGE_COUNT } stage;

static const char *const stage_policy[STAGE_COUNT] = {
    ANIM_RIG_POLICY_EXACT, ANIM_RIG_POLICY_NAMESPACE, ANIM_RIG_POLICY_FOLDED,
};

static const char *bone_name(const anim_doc *doc, uint32_t i)
{
    const char *name = doc->bones[i].name;
    return name ? name : "";
}

/* The local name after the last ':' ("mixamorig1:Hips" -> "Hips"). */
static const char *strip_namespace(const char *name)
{
    const char *colon = strrchr(name, ':');
    return colon ? colon + 1 : name;
}

static int fold(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

/* Only ASCII letters fold: Unicode case mapping depends on tables and
 * locale, and the contract promises "ASCII case-insensitive". */
static bool ascii_equal_folded(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (fold((unsigned char)*a) != fold((unsigned char)*b))
            return false;
    return *a == *b;
}

/* The namespace stages apply only to a bone that has a namespace: a bare
 * "Hips" is not a stripped "mixamorig:Hips", it is a different convention
 * (the blender profile's). The wanted name is stripped too, so the mixamo
 * table's "mixamorig:Hips" accepts "mixamorig1:Hips" and "Character1:Hips". */
static bool stage_matches(stage st, const char *name, const char *wanted)
{
    bool has_ns = strchr(name, ':') != NULL;
    switch (st) {
    case STAGE_EXACT:
        return strcmp(name, wanted) == 0;
    case STAGE_NAMESPACE:
        return has_ns &&
               strcmp(strip_namespace(name), strip_namespace(wanted)) == 0;
    case STAGE_FOLDED:
        return ascii_equal_folded(name, wanted) ||
               (has_ns && ascii_equal_folded(strip_namespace(name),
                                             strip_namespace(wanted)));
    default:
        return false;
    }
}

static bool is_skin_joint(const anim_doc *doc, uint32_t bone)
{
    uint32_t node = doc->bones[bone].node;
    for (uint32_t s = 0; s < doc->skin_count; s++)
        for (uint32_t j = 0; j < doc->skins[s].joint_count; j++)
            if (doc->skins[s].joints[j] == node)
                return true;
    return false;
}

/* Counts candidates and keeps the first two in bone order. When a name is
 * shared but exactly one of the bones carrying it is a skin joint (a joint
 * `Head` beside a mesh node `Head`, as exporters often write), the joint is
 * the bone an engine animates: it alone is the candidate. */
static uint32_t find_candidates(const anim_doc *doc, stage st,
                                const char *wanted, uint32_t found[2])
{
    uint32_t n = 0, joints = 0, joint = ANIM_NONE;
    found[0] = found[1] = ANIM_NONE;
    for (uint32_t i = 0; i < doc->bone_count; i++) {
        if (!stage_matches(st, bone_name(doc, i), wanted))
            continue;
        if (n < 2)
            found[n] = i;
        n++;
        if (is_skin_joint(doc, i)) {
            joints++;
            joint = i;
        }
    }
    if (n >= 2 && joints == 1) {
        found[0] = joint;
        found[1] = ANIM_NONE;
        return 1;
    }
    return n;
}

static void clear_resolution(anim_rig_resolution *out)
{
    memset(out, 0, sizeof *out);
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        out->bone[r] = ANIM_NONE;
        out->ambiguous_bone[r][0] = out->ambiguous_bone[r][1] = ANIM_NONE;
    }
    out->outcome = ANIM_RIG_OUTCOME_COVERAGE;
    strcpy(out->label, "unknown");
}

static void bind_role(anim_rig_resolution *out, int r, uint32_t bone,
                      const char *policy)
{
    out->bone[r] = bone;
    out->policy[r] = policy;
    out->state[r] = ANIM_RIG_ROLE_BOUND;
    out->ambiguous_bone[r][0] = out->ambiguous_bone[r][1] = ANIM_NONE;
}

static void mark_ambiguous(anim_rig_resolution *out, int r,
                           anim_rig_role_state state, const uint32_t found[2])
{
    out->bone[r] = ANIM_NONE;
    out->policy[r] = NULL;
    out->state[r] = state;
    out->ambiguous_bone[r][0] = found[0];
    out->ambiguous_bone[r][1] = found[1];
}

static void resolve_role(const anim_doc *doc, const char *wanted, int r,
                         anim_rig_resolution *out)
{
    uint32_t found[2];
    for (int st = 0; st < STAGE_COUNT; st++) {
        uint32_t n = find_candidates(doc, (stage)st, wanted, found);
        if (n == 1) {
            bind_role(out, r, found[0], stage_policy[st]);
            return;
        }
        if (n >= 2) {
            mark_ambiguous(out, r,
                           st == STAGE_FOLDED ? ANIM_RIG_ROLE_AMBIGUOUS_FOLDED
                                              : ANIM_RIG_ROLE_AMBIGUOUS_EXACT,
                           found);
            return;
        }
    }
}

static uint32_t count_bound(const anim_rig_resolution *res)
{
    uint32_t n = 0;
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        n += res->state[r] == ANIM_RIG_ROLE_BOUND;
    return n;
}

static bool any_state(const anim_rig_resolution *res, anim_rig_role_state s)
{
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        if (res->state[r] == s)
            return true;
    return false;
}

/* The single outcome: the most severe condition wins, so a consumer that
 * reads only this field still learns that something was refused. */
static const char *outcome_of(const anim_rig_resolution *res)
{
    if (res->tied_count > 0)
        return ANIM_RIG_OUTCOME_AMBIGUOUS_PROFILE;
    if (any_state(res, ANIM_RIG_ROLE_COLLISION))
        return ANIM_RIG_OUTCOME_ROLE_COLLISION;
    if (any_state(res, ANIM_RIG_ROLE_AMBIGUOUS_EXACT))
        return ANIM_RIG_OUTCOME_AMBIGUOUS_EXACT;
    if (any_state(res, ANIM_RIG_ROLE_AMBIGUOUS_FOLDED))
        return ANIM_RIG_OUTCOME_AMBIGUOUS_FOLDED;
    if (res->resolved_count == 0)
        return ANIM_RIG_OUTCOME_COVERAGE;
    /* The bundled walk.glb binds 3 of ue-mannequin's 10 roles and reports
     * coverage; a Mixamo rig binding all 9 of mixamo's reports resolved. */
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        if (res->declared[r] && res->state[r] != ANIM_RIG_ROLE_BOUND)
            return ANIM_RIG_OUTCOME_COVERAGE;
    return ANIM_RIG_OUTCOME_RESOLVED;
}

static void resolve_table(const anim_doc *doc, const rig_profile *prof,
                          anim_rig_resolution *out)
{
    clear_resolution(out);
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        if (!prof->bones[r])
            continue;
        out->declared[r] = true;
        resolve_role(doc, prof->bones[r], r, out);
    }
    out->resolved_count = count_bound(out);
    out->base_profile = prof->name;
    if (out->resolved_count > 0) {
        strncpy(out->label, prof->name, ANIM_RIG_LABEL_MAX - 1);
        out->label[ANIM_RIG_LABEL_MAX - 1] = '\0';
    }
    out->outcome = outcome_of(out);
}

int anim_rig_resolve_profile(const anim_doc *doc, const char *profile,
                             anim_rig_resolution *out, anim_error *err)
{
    if (!doc || !out)
        return anim_error_set(err, ANIM_ERR_USAGE, "rig: NULL argument");
    const rig_profile *prof = rig_profile_find(profile);
    if (!prof)
        return anim_error_set(err, ANIM_ERR_USAGE, "rig: unknown profile '%s'",
                              profile ? profile : "(null)");
    resolve_table(doc, prof, out);
    return 0;
}

/* A marker is present when any stage finds it, ambiguous or not. */
static bool markers_present(const anim_doc *doc, const rig_profile *prof)
{
    if (!prof->markers)
        return true;
    uint32_t found[2];
    for (const char *const *m = prof->markers; *m; m++)
        for (int st = 0; st < STAGE_COUNT; st++)
            if (find_candidates(doc, (stage)st, *m, found) > 0)
                return true;
    return false;
}

static bool same_bindings(const anim_rig_resolution *a,
                          const anim_rig_resolution *b)
{
    return memcmp(a->bone, b->bone, sizeof a->bone) == 0;
}

#define MAX_PROFILES 8

/* auto (profile scores plus markers): profiles below 2 roles or missing their
 * markers drop out; the most roles wins. Tied profiles that bind the same
 * bones are one answer, labelled by the later profile (the
 * last-maximum rule); tied profiles that disagree are ambiguous_profile and
 * bind nothing, since either choice would be a guess. */
static void resolve_auto(const anim_doc *doc, anim_rig_resolution *out)
{
    anim_rig_resolution cand[MAX_PROFILES]; /* about 500 bytes each */
    size_t count = anim_rig_profile_count();
    bool eligible[MAX_PROFILES] = {false};
    uint32_t best = 0;

    if (count > MAX_PROFILES)
        count = MAX_PROFILES;
    for (size_t i = 0; i < count; i++) {
        const rig_profile *prof = rig_profile_at(i);
        resolve_table(doc, prof, &cand[i]);
        eligible[i] = cand[i].resolved_count >= 2 && markers_present(doc, prof);
        if (eligible[i] && cand[i].resolved_count > best)
            best = cand[i].resolved_count;
    }
    clear_resolution(out);
    if (best == 0)
        return;

    size_t pick = 0;
    bool agree = true;
    for (size_t i = 0; i < count; i++) {
        if (!eligible[i] || cand[i].resolved_count != best)
            continue;
        if (out->tied_count > 0 && !same_bindings(&cand[pick], &cand[i]))
            agree = false;
        out->tied_profiles[out->tied_count++] = rig_profile_at(i)->name;
        pick = i;
    }
    if (agree) {
        *out = cand[pick];
        out->tied_count = 0;
        memset(out->tied_profiles, 0, sizeof out->tied_profiles);
    }
}

/* Roles sharing one bone would make left/right or body-part checks compare
 * a bone with itself; all of them are unbound and reported. Built-in
 * tables cannot collide (their names differ after stripping and folding),
 * so a collision always involves [rig.roles]. */
static void unbind_collisions(anim_rig_resolution *out)
{
    bool collided[ANIM_ROLE_COUNT] = {false};
    for (int a = 0; a < ANIM_ROLE_COUNT; a++)
        for (int b = a + 1; b < ANIM_ROLE_COUNT; b++)
            if (out->state[a] == ANIM_RIG_ROLE_BOUND &&
                out->state[b] == ANIM_RIG_ROLE_BOUND &&
                out->bone[a] == out->bone[b])
                collided[a] = collided[b] = true;
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        if (!collided[r])
            continue;
        uint32_t shared[2] = {out->bone[r], ANIM_NONE};
        mark_ambiguous(out, r, ANIM_RIG_ROLE_COLLISION, shared);
    }
}

/* Inline [rig.roles] (the third resolution step): exact names only, applied after the
 * base in role order so they override it. A name found on two bones is
 * ambiguous like any other; an absent name is ignored. Returns whether any
 * inline name exists in the skeleton ("inline_contributed"). */
static bool apply_inline(const anim_doc *doc, const char *const *inline_bones,
                         anim_rig_resolution *out)
{
    bool contributed = false;
    if (!inline_bones)
        return false;
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        if (!inline_bones[r])
            continue;
        out->declared[r] = true;
        uint32_t found[2];
        uint32_t n = find_candidates(doc, STAGE_EXACT, inline_bones[r], found);
        if (n == 0)
            continue;
        contributed = true;
        if (n == 1)
            bind_role(out, r, found[0], ANIM_RIG_POLICY_EXPLICIT);
        else
            mark_ambiguous(out, r, ANIM_RIG_ROLE_AMBIGUOUS_EXACT, found);
    }
    return contributed;
}

static void set_label(anim_rig_resolution *out, const char *base,
                      bool base_contributed, bool inline_contributed)
{
    const char *label = "unknown";
    char both[ANIM_RIG_LABEL_MAX];
    if (base_contributed && inline_contributed) {
        /* Profile names are short built-in strings: no truncation. */
        strcpy(both, base);
        strcat(both, "+custom");
        label = both;
    } else if (base_contributed) {
        label = base;
    } else if (inline_contributed) {
        label = "custom";
    }
    strcpy(out->label, label);
}

int anim_rig_resolve(const anim_doc *doc, const anim_rig_config *cfg,
                     anim_rig_resolution *out, anim_error *err)
{
    if (!doc || !out)
        return anim_error_set(err, ANIM_ERR_USAGE, "rig: NULL argument");
    const char *profile = cfg && cfg->profile ? cfg->profile : "auto";
    const rig_profile *named = rig_profile_find(profile);

    if (strcmp(profile, "auto") == 0) {
        resolve_auto(doc, out);
    } else if (named) {
        resolve_table(doc, named, out);
    } else {
        clear_resolution(out); /* unknown name: empty base, not an error */
        out->profile_unknown = true;
    }

    bool base_contributed = out->resolved_count > 0;
    const char *base = base_contributed ? out->base_profile : NULL;
    if (!base_contributed) {
        /* A base that bound nothing declares nothing either; its
         * ambiguous roles stay reported. */
        out->base_profile = NULL;
        memset(out->declared, 0, sizeof out->declared);
    }
    bool inline_contributed =
        apply_inline(doc, cfg ? cfg->inline_bones : NULL, out);
    unbind_collisions(out);
    out->resolved_count = count_bound(out);
    set_label(out, base, base_contributed, inline_contributed);
    out->outcome = outcome_of(out);
    return 0;
}

static void put_padded_role(anim_strbuf *sb, int r)
{
    anim_strbuf_printf(sb, "  %-12s", anim_role_name((anim_role)r));
}

static void put_bone(anim_strbuf *sb, const anim_doc *doc, uint32_t bone)
{
    if (bone < doc->bone_count) {
        const char *name = bone_name(doc, bone);
        anim_text_atom(sb, name, strlen(name));
    }
}

/* One line per refused role: which bones competed, so the user can rename
 * one of them or declare the role in [rig.roles]. */
static void put_problem_roles(anim_strbuf *sb, const anim_doc *doc,
                              const anim_rig_resolution *res)
{
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        anim_rig_role_state st = res->state[r];
        if (st == ANIM_RIG_ROLE_UNBOUND || st == ANIM_RIG_ROLE_BOUND)
            continue;
        put_padded_role(sb, r);
        anim_strbuf_puts(sb, st == ANIM_RIG_ROLE_COLLISION ? " shares: "
                                                            : " ambiguous: ");
        for (int k = 0; k < 2; k++) {
            uint32_t b = res->ambiguous_bone[r][k];
            if (b == ANIM_NONE)
                continue;
            if (k > 0)
                anim_strbuf_puts(sb, ", ");
            put_bone(sb, doc, b);
            anim_strbuf_printf(sb, " (bone %u)", (unsigned)b);
        }
        anim_strbuf_putc(sb, '\n');
    }
}

void anim_rig_format_inspect(const anim_doc *doc,
                             const anim_rig_resolution *res, anim_strbuf *out)
{
    if (!doc || !res || !out)
        return;
    if (res->resolved_count == 0) {
        anim_strbuf_puts(out, "rig profile: none detected\n");
    } else {
        anim_strbuf_printf(out, "rig profile: %s (%u roles)\n", res->label,
                           (unsigned)res->resolved_count);
        for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
            if (res->state[r] != ANIM_RIG_ROLE_BOUND)
                continue;
            put_padded_role(out, r);
            anim_strbuf_puts(out, " -> ");
            put_bone(out, doc, res->bone[r]);
            anim_strbuf_printf(out, " (%s)\n", res->policy[r]);
        }
    }
    const char *oc = res->outcome;
    if (!oc || strcmp(oc, ANIM_RIG_OUTCOME_RESOLVED) == 0 ||
        strcmp(oc, ANIM_RIG_OUTCOME_COVERAGE) == 0)
        return;
    anim_strbuf_printf(out, "rig resolution: %s", oc);
    if (res->tied_count > 0) {
        anim_strbuf_puts(out, " (tied:");
        for (uint32_t i = 0; i < res->tied_count; i++)
            anim_strbuf_printf(out, "%s %s", i ? "," : "", res->tied_profiles[i]);
        anim_strbuf_putc(out, ')');
    }
    anim_strbuf_putc(out, '\n');
    put_problem_roles(out, doc, res);
}
