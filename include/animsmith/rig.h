/* Rig profiles and role resolution (docs/rig-profiles.md, plus the output-v11
 * contract: per-role matching policies and one resolution outcome).
 *
 * A profile is a table role -> wanted bone name. Resolution binds each role
 * to exactly one bone or to none; it never guesses between two candidates,
 * it reports the ambiguity instead. Only bone names and bone indices are
 * used, so the result depends on nothing but the skeleton's names and
 * order. docs/rig-profiles.md holds every table and rule. */
#ifndef ANIMSMITH_RIG_H
#define ANIMSMITH_RIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "animsmith/doc.h"
#include "animsmith/error.h"
#include "animsmith/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Enum order is the listing order of inspect. */
typedef enum {
    ANIM_ROLE_ROOT = 0,
    ANIM_ROLE_HIPS,
    ANIM_ROLE_SPINE,
    ANIM_ROLE_HEAD,
    ANIM_ROLE_LEFT_FOOT,
    ANIM_ROLE_RIGHT_FOOT,
    ANIM_ROLE_LEFT_TOE,
    ANIM_ROLE_RIGHT_TOE,
    ANIM_ROLE_LEFT_HAND,
    ANIM_ROLE_RIGHT_HAND,
    ANIM_ROLE_COUNT
} anim_role;

/* "root", "hips", ...; NULL for an out-of-range value. */
const char *anim_role_name(anim_role role);
/* Role by its stable name (exact, case-sensitive); -1 when unknown. */
int anim_role_from_name(const char *name);

/* Matching policies, the values of rig.resolved_role_policies. */
#define ANIM_RIG_POLICY_EXACT "exact"
#define ANIM_RIG_POLICY_NAMESPACE "namespace_stripped"
#define ANIM_RIG_POLICY_FOLDED "ascii_case_folded"
#define ANIM_RIG_POLICY_EXPLICIT "explicit"

/* Resolution outcomes, the values of rig.resolution_outcome. */
#define ANIM_RIG_OUTCOME_RESOLVED "resolved"
#define ANIM_RIG_OUTCOME_COVERAGE "coverage"
#define ANIM_RIG_OUTCOME_AMBIGUOUS_EXACT "ambiguous_exact_match"
#define ANIM_RIG_OUTCOME_AMBIGUOUS_FOLDED "ambiguous_folded_match"
#define ANIM_RIG_OUTCOME_ROLE_COLLISION "role_collision"
#define ANIM_RIG_OUTCOME_AMBIGUOUS_PROFILE "ambiguous_profile"

/* Built-in profiles in declaration order (the order auto's ties use):
 * mixamo, ue-mannequin, humanoid, ue5-manny, blender. */
size_t anim_rig_profile_count(void);
const char *anim_rig_profile_name(size_t index); /* NULL when out of range */
/* Wanted bone name of a role in a profile; NULL when the profile has none
 * for that role (the "—" cells of the tables) or index is out of range. */
const char *anim_rig_profile_bone(size_t index, anim_role role);
/* Whether name is a built-in profile or "auto". An unknown name resolves to
 * an empty base; the config loader decides whether to refuse. */
bool anim_rig_profile_known(const char *name);

typedef struct anim_rig_config {
    const char *profile;               /* NULL or "auto": detect */
    /* Inline [rig.roles], indexed by anim_role; NULL entries (or a NULL
     * array) mean "not declared". Names match exactly, nothing else. */
    const char *const *inline_bones;
} anim_rig_config;

/* Why a role is not bound (or where its binding came from). */
typedef enum {
    ANIM_RIG_ROLE_UNBOUND = 0,       /* no candidate, or not in the table */
    ANIM_RIG_ROLE_BOUND,
    ANIM_RIG_ROLE_AMBIGUOUS_EXACT,   /* >= 2 bones at the exact or
                                        namespace-stripped stage */
    ANIM_RIG_ROLE_AMBIGUOUS_FOLDED,  /* >= 2 bones at the folded stage */
    ANIM_RIG_ROLE_COLLISION          /* shared a bone with another role */
} anim_rig_role_state;

#define ANIM_RIG_LABEL_MAX 64

typedef struct anim_rig_resolution {
    /* rig.profile: "unknown", "custom", "<base>" or "<base>+custom". */
    char label[ANIM_RIG_LABEL_MAX];
    const char *outcome;                  /* one of ANIM_RIG_OUTCOME_* */
    const char *base_profile;             /* profile used as base, or NULL */
    bool profile_unknown;                 /* configured name is unknown */
    uint32_t bone[ANIM_ROLE_COUNT];       /* ANIM_NONE when unbound */
    const char *policy[ANIM_ROLE_COUNT];  /* ANIM_RIG_POLICY_*, NULL unbound */
    anim_rig_role_state state[ANIM_ROLE_COUNT];
    /* Roles the base profile's table or [rig.roles] names: outcome is
     * "resolved" only when every declared role is bound. */
    bool declared[ANIM_ROLE_COUNT];
    /* For messages: an ambiguous role's first two candidates in bone order,
     * or a colliding role's shared bone in [0]; ANIM_NONE otherwise. */
    uint32_t ambiguous_bone[ANIM_ROLE_COUNT][2];
    uint32_t resolved_count;
    /* auto tie with different bindings: the tied profiles (declaration
     * order, at most all built-ins). */
    const char *tied_profiles[8];
    uint32_t tied_count;
} anim_rig_resolution;

/* Resolves cfg (NULL = auto, no inline roles) against doc's bone names.
 * Never fails on rig content; returns -1 only for NULL arguments. */
int anim_rig_resolve(const anim_doc *doc, const anim_rig_config *cfg,
                     anim_rig_resolution *out, anim_error *err);

/* Resolves one named built-in profile on its own (no auto, no inline, no
 * >= 2 rule). Returns -1 for an unknown name. Used by auto and by tests. */
int anim_rig_resolve_profile(const anim_doc *doc, const char *profile,
                             anim_rig_resolution *out, anim_error *err);

/* inspect's rig section (docs/inspect.md):
 *   rig profile: {label} ({count} roles)
 *     {role padded to 12} -> {bone name} ({policy})
 * or "rig profile: none detected"; each line ends with "\n". When the
 * outcome is neither resolved nor coverage one extra line explains it:
 *   "  ({outcome}: {detail})". Bone names go through anim_text_atom. */
void anim_rig_format_inspect(const anim_doc *doc,
                             const anim_rig_resolution *res, anim_strbuf *out);

#ifdef __cplusplus
}
#endif
#endif
