/* engine-root-motion: Unity Generic (profile revision 2) root-motion
 * routing. For each clip and each axis whose movement owner the project
 * declares, the clip's Unity setting says where that motion goes: "bake"
 * keeps it in the pose, "extract" stores it as root motion. Gameplay
 * ownership needs the pose to keep it (the controller moves the
 * character); animation ownership needs root motion (the clip moves it).
 * A mismatch is an error finding bound to the facet; missing evidence is a
 * required-unavailable facet, never a guess.
 *
 * The evidence: root_motion_source must name, byte for byte, exactly one
 * Model of the file's raw transform-path inventory, and that Model must be
 * the node of the resolved Root role (never Hips: Unity extracts from the
 * node it is given, so a fallback would predict for the wrong node). The
 * Root trajectory's availability for the axis must be measured; its
 * magnitude is recorded as basis and decides nothing (a still clip and a
 * travelling one route the same way). */
#include <string.h>

#include "animsmith/engine.h"
#include "animsmith/fbx.h"
#include "checks/checks.h"
#include "checks/engine_clip_names.h"

#define SCOPE "root_motion_routing"
#define MAX_REASONS 8
#define MAX_BASIS 16

typedef enum { AXIS_XZ, AXIS_Y, AXIS_YAW, AXIS_COUNT } axis_id;

static const struct {
    const char *name;     /* the facet's axis */
    const char *setting;  /* the Unity clip setting that routes it */
    const char *owner_key;
} AXES[AXIS_COUNT] = {
    {"horizontal_xz", "root_position_xz", "movement_owner_xz"},
    {"vertical_y", "root_position_y", "movement_owner_y"},
    {"yaw", "root_rotation", "movement_owner_yaw"},
};

static anim_movement_owner owner_of(const anim_clip_expect *e, axis_id a)
{
    return a == AXIS_XZ ? e->movement_owner_xz
           : a == AXIS_Y ? e->movement_owner_y
                         : e->movement_owner_yaw;
}

static bool any_owner(const anim_clip_expect *e)
{
    return e->movement_owner_xz != ANIM_OWNER_UNSET || e->movement_owner_y != ANIM_OWNER_UNSET ||
           e->movement_owner_yaw != ANIM_OWNER_UNSET;
}

static bool exact_profile(const anim_lint_context *ctx)
{
    const anim_engine_profile *p = ctx->engine ? anim_engine_run_profile(ctx->engine) : NULL;
    return p && p->family == ANIM_ENGINE_UNITY_GENERIC && p->revision == 2 &&
           anim_engine_run_format(ctx->engine) == ANIM_ENGINE_FORMAT_FBX && ctx->asset &&
           ctx->asset->source.fbx;
}

CHECK_APPLIES(engine_root_motion)
{
    if (!exact_profile(ctx))
        return false;
    for (uint32_t c = 0; c < ctx->doc->clip_count; c++)
        if (any_owner(&ctx->expect[c]))
            return true;
    return false;
}

/* ---- what holds for the whole file ---- */

typedef struct {
    const anim_fbx_facts *fbx;
    const char *path;            /* root_motion_source, NULL when unresolved */
    const char *path_reason;     /* why the path identifies no Root, or NULL */
    uint32_t row;                /* the matching raw row, ANIM_NONE */
    bool root_resolved;
    bool *duplicate;             /* per clip: another clip has its name */
    uint32_t row_count;          /* clip-setting rows kept */
    bool overflow;               /* the file has more clips than that */
} file_facts;

static void resolve_path(const anim_lint_context *ctx, file_facts *ff)
{
    const anim_engine_setting_value *src =
        anim_engine_run_setting(ctx->engine, "root_motion_source");
    ff->path = src && src->text ? src->text : NULL;
    ff->row = ANIM_NONE;
    uint32_t root_bone = ctx->rig ? ctx->rig->bone[ANIM_ROLE_ROOT] : ANIM_NONE;
    ff->root_resolved = root_bone != ANIM_NONE && root_bone < ctx->doc->bone_count;
    if (!ff->path) {
        ff->path_reason = "root_motion_source_unresolved";
        return;
    }
    uint32_t row = ANIM_NONE;
    switch (anim_fbx_raw_path_match(ff->fbx, ff->path, &row, NULL)) {
    case ANIM_FBX_PATH_MATCH:
        ff->row = row;
        break;
    case ANIM_FBX_PATH_NO_MATCH:
        ff->path_reason = "root_motion_source_no_match";
        return;
    case ANIM_FBX_PATH_AMBIGUOUS:
        ff->path_reason = "root_motion_source_ambiguous";
        return;
    default:
        ff->path_reason = "raw_path_inventory_incomplete";
        return;
    }
    /* The path's Model against the Root role's bone, through the glTF node
     * the projection made of that Model. */
    if (ff->root_resolved &&
        ff->fbx->raw_nodes[row].gltf_node != ctx->doc->bones[root_bone].node)
        ff->path_reason = "root_role_mismatch";
}

/* ---- one clip ---- */

typedef struct {
    const char *reasons[MAX_REASONS];
    uint32_t reason_count;
    anim_basis_row basis[MAX_BASIS];
    uint32_t basis_count;
    bool nomem;                  /* a row's reference could not be allocated */
} facet_rows;

static void add_reason(facet_rows *r, const char *code)
{
    for (uint32_t i = 0; i < r->reason_count; i++)
        if (strcmp(r->reasons[i], code) == 0)
            return;
    if (r->reason_count < MAX_REASONS)
        r->reasons[r->reason_count++] = code;
}

static void add_basis(facet_rows *r, anim_basis_kind kind, anim_field value)
{
    if (!value.key) {
        r->nomem = true;
    } else if (r->basis_count < MAX_BASIS) {
        r->basis[r->basis_count].kind = kind;
        r->basis[r->basis_count].value = value;
        r->basis_count++;
    }
}

/* A text fact of the frozen profile as a basis row (none when the profile
 * does not state it). */
static void add_profile_fact(const anim_lint_context *ctx, facet_rows *r, const char *key)
{
    if (!key) {
        r->nomem = true;
        return;
    }
    const anim_engine_fact *f =
        anim_engine_profile_fact(anim_engine_run_profile(ctx->engine), key);
    if (f && f->kind == ANIM_ENGINE_FACT_TEXT)
        add_basis(r, ANIM_BASIS_PROFILE_FACT, anim_field_text(f->key, f->text));
}

/* The measurements pointer of one root_trajectory member of the clip:
 * "/clips/<name>/root_trajectory/<member>", the name escaped as a JSON
 * pointer token ("~" -> "~0", "/" -> "~1"). */
static const char *trajectory_pointer(anim_arena *a, const char *clip, const char *member)
{
    size_t n = strlen(clip), extra = 0;
    for (size_t i = 0; i < n; i++)
        extra += clip[i] == '~' || clip[i] == '/';
    char *tok = anim_arena_alloc(a, n + extra + 1);
    if (!tok)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (clip[i] == '~' || clip[i] == '/') {
            tok[k++] = '~';
            tok[k++] = clip[i] == '~' ? '0' : '1';
        } else {
            tok[k++] = clip[i];
        }
    }
    tok[k] = '\0';
    return anim_arena_printf(a, "/clips/%s/root_trajectory/%s", tok, member);
}

typedef struct {
    bool measured;               /* root_trajectory selected the Root role */
    anim_root_trajectory t;
} clip_trajectory;

/* The measured evidence of one axis as basis rows; false when the axis's
 * domain is not measured. */
static bool trajectory_basis(anim_lint_context *ctx, const char *clip, const clip_trajectory *ct,
                             axis_id axis, facet_rows *r)
{
    anim_arena *a = ctx->arena;
    if (!ct->measured)
        return false;
    add_basis(r, ANIM_BASIS_MEASUREMENT,
              anim_field_text(trajectory_pointer(a, clip, "source_role"),
                              anim_root_source_name(ct->t.source)));
    add_basis(r, ANIM_BASIS_MEASUREMENT,
              anim_field_int(trajectory_pointer(a, clip, "bone_index"), ct->t.bone_index));
    if (axis == AXIS_YAW) {
        bool ok = ct->t.yaw_availability == ANIM_AVAIL_MEASURED;
        add_basis(r, ANIM_BASIS_MEASUREMENT,
                  anim_field_text(trajectory_pointer(a, clip, "yaw_availability"),
                                  ok ? "measured" : "unavailable"));
        if (!ok)
            return false;
        add_basis(r, ANIM_BASIS_MEASUREMENT,
                  anim_field_number(trajectory_pointer(a, clip, "yaw/net_yaw_deg"),
                                    ct->t.yaw.net_deg));
        add_basis(r, ANIM_BASIS_MEASUREMENT,
                  anim_field_number(trajectory_pointer(a, clip, "yaw/yaw_travel_deg"),
                                    ct->t.yaw.travel_deg));
        return true;
    }
    bool ok = ct->t.translation_availability == ANIM_AVAIL_MEASURED;
    add_basis(r, ANIM_BASIS_MEASUREMENT,
              anim_field_text(trajectory_pointer(a, clip, "translation_availability"),
                              ok ? "measured" : "unavailable"));
    if (!ok)
        return false;
    const anim_root_translation *tr = &ct->t.translation;
    if (axis == AXIS_XZ) {
        add_basis(r, ANIM_BASIS_MEASUREMENT,
                  anim_field_number(
                      trajectory_pointer(a, clip, "translation/horizontal_displacement_x_m"),
                      tr->dx_m));
        add_basis(r, ANIM_BASIS_MEASUREMENT,
                  anim_field_number(
                      trajectory_pointer(a, clip, "translation/horizontal_displacement_z_m"),
                      tr->dz_m));
        add_basis(r, ANIM_BASIS_MEASUREMENT,
                  anim_field_number(trajectory_pointer(a, clip, "translation/horizontal_travel_m"),
                                    tr->travel_m));
    } else {
        add_basis(r, ANIM_BASIS_MEASUREMENT,
                  anim_field_number(
                      trajectory_pointer(a, clip, "translation/vertical_displacement_m"),
                      tr->dy_m));
        add_basis(r, ANIM_BASIS_MEASUREMENT,
                  anim_field_number(
                      trajectory_pointer(a, clip, "translation/vertical_min_displacement_m"),
                      tr->y_min_m));
        add_basis(r, ANIM_BASIS_MEASUREMENT,
                  anim_field_number(
                      trajectory_pointer(a, clip, "translation/vertical_max_displacement_m"),
                      tr->y_max_m));
    }
    return true;
}

static const char *disposition_of(const char *setting)
{
    if (!setting)
        return NULL;
    if (strcmp(setting, "bake") == 0)
        return "baked_into_pose";
    if (strcmp(setting, "extract") == 0)
        return "stored_as_root_motion";
    return NULL;
}

static int conflict_finding(anim_lint_context *ctx, anim_check_record *rec, const char *clip,
                            const char *subject, axis_id axis, anim_movement_owner owner,
                            const char *setting, const char *disposition)
{
    anim_finding_fields f = {0};
    f.severity = ANIM_SEVERITY_ERROR;
    f.clip = clip;
    f.measured = anim_value_text(disposition);
    f.expected = anim_value_text(owner == ANIM_OWNER_GAMEPLAY ? "baked_into_pose"
                                                              : "stored_as_root_motion");
    f.prediction_scope_code = SCOPE;
    f.prediction_scope_subject = subject;
    if (owner == ANIM_OWNER_GAMEPLAY)
        return anim_check_finding(ctx, rec, &f,
                                  "%s is owned by gameplay but %s = \"%s\" stores it as root "
                                  "motion \xe2\x80\x94 Unity moves the character from the clip "
                                  "as well as from the controller",
                                  AXES[axis].name, AXES[axis].setting, setting);
    return anim_check_finding(ctx, rec, &f,
                              "%s is owned by the animation but %s = \"%s\" bakes it into the "
                              "pose \xe2\x80\x94 no root motion reaches the character, which "
                              "moves in place",
                              AXES[axis].name, AXES[axis].setting, setting);
}

static int clip_axis(anim_lint_context *ctx, anim_check_record *rec, const file_facts *ff,
                     uint32_t c, const clip_trajectory *ct, axis_id axis)
{
    const char *clip = ctx->doc->clips[c].name ? ctx->doc->clips[c].name : "";
    anim_movement_owner owner = owner_of(&ctx->expect[c], axis);
    anim_arena *a = ctx->arena;
    const char *subject = anim_arena_printf(a, "%s/%s", clip, AXES[axis].name);
    if (!subject)
        return -1;
    facet_rows r;
    memset(&r, 0, sizeof r);

    /* Project intent, then the importer setting, then the raw path. */
    add_basis(&r, ANIM_BASIS_CONFIG,
              anim_field_text(anim_arena_printf(a, "clips.\"%s\".%s", clip, AXES[axis].owner_key),
                              anim_movement_owner_name(owner)));
    const anim_engine_setting_value *sv = NULL;
    if (ff->duplicate[c])
        add_reason(&r, "duplicate_clip_name");
    if (c >= ff->row_count && ff->overflow) {
        add_reason(&r, "resolved_settings_overflow");
    } else {
        sv = anim_engine_run_clip_setting(ctx->engine, c, AXES[axis].setting);
        if (!sv || !disposition_of(sv->text))
            add_reason(&r, "clip_settings_unresolved");
    }
    const char *disposition = sv ? disposition_of(sv->text) : NULL;
    if (disposition) {
        add_basis(&r, ANIM_BASIS_SETTING,
                  anim_field_text(anim_arena_printf(a, "clip/%s/%s", clip, AXES[axis].setting),
                                  sv->text));
        /* What the profile says that value does ("clip_setting_extract"). */
        add_profile_fact(ctx, &r, anim_arena_printf(a, "clip_setting_%s", sv->text));
    }
    if (ff->path) {
        add_basis(&r, ANIM_BASIS_SETTING, anim_field_text("root_motion_source", ff->path));
        add_profile_fact(ctx, &r, "root_motion_source_role");
    }
    add_basis(&r, ANIM_BASIS_RAW_SOURCE,
              anim_field_text("/raw_coverage", anim_fbx_coverage_name(ff->fbx->raw_coverage)));
    if (ff->row != ANIM_NONE)
        add_basis(&r, ANIM_BASIS_RAW_SOURCE,
                  anim_field_int(anim_arena_printf(a, "/raw_nodes/%u/id", ff->row),
                                 ff->fbx->raw_nodes[ff->row].id));
    if (ff->path_reason)
        add_reason(&r, ff->path_reason);
    if (!ff->root_resolved)
        add_reason(&r, "root_role_unresolved");
    if (ff->root_resolved && !trajectory_basis(ctx, clip, ct, axis, &r))
        add_reason(&r, axis == AXIS_YAW ? "yaw_unavailable" : "translation_unavailable");

    if (r.nomem)
        return -1;
    anim_prediction_facet facet;
    memset(&facet, 0, sizeof facet);
    facet.scope.code = SCOPE;
    facet.scope.subject = subject;
    facet.basis = r.basis;
    facet.basis_count = r.basis_count;
    if (r.reason_count) {
        facet.state = ANIM_FACET_REQUIRED_UNAVAILABLE;
        facet.reasons = r.reasons;
        facet.reason_count = r.reason_count;
        return anim_check_facet(ctx, rec, &facet);
    }
    bool baked = strcmp(disposition, "baked_into_pose") == 0;
    bool compatible = owner == ANIM_OWNER_GAMEPLAY ? baked : !baked;
    const anim_field result[] = {
        anim_field_text("axis", AXES[axis].name),
        anim_field_text("project_owner", anim_movement_owner_name(owner)),
        anim_field_text("importer_disposition", disposition),
        anim_field_text("compatibility", compatible ? "compatible" : "conflict"),
        anim_field_text("root_motion_source", ff->path),
    };
    facet.state = ANIM_FACET_AVAILABLE;
    facet.result_kind = "root_motion_routing";
    facet.result = result;
    facet.result_count = (uint32_t)(sizeof result / sizeof result[0]);
    uint32_t omitted = rec->facets_omitted;
    if (anim_check_facet(ctx, rec, &facet))
        return -1;
    /* A finding binds to a recorded available facet: none past the budget. */
    if (compatible || rec->facets_omitted != omitted)
        return 0;
    return conflict_finding(ctx, rec, clip, subject, axis, owner, sv->text, disposition);
}

/* The Root trajectory of clip c on its metric grid, whenever the Root role
 * resolves: its availability is evidence of its own, whatever the path
 * says, so an unavailable facet lists every reason at once. */
static void measure_clip(anim_lint_context *ctx, const file_facts *ff, uint32_t c,
                         clip_trajectory *ct)
{
    memset(ct, 0, sizeof *ct);
    if (!ff->root_resolved)
        return;
    const anim_metric_grid *grid = anim_lint_grid(ctx, c);
    anim_root_trajectory_measure(ctx->doc, ctx->rig, grid, &ct->t);
    ct->measured = ct->t.availability == ANIM_AVAIL_MEASURED &&
                   ct->t.source == ANIM_ROOT_SOURCE_ROOT;
}

CHECK_RUN(engine_root_motion)
{
    file_facts ff;
    memset(&ff, 0, sizeof ff);
    ff.fbx = ctx->asset->source.fbx;
    resolve_path(ctx, &ff);
    (void)anim_engine_run_clips(ctx->engine, &ff.row_count, &ff.overflow);
    if (engine_duplicate_clip_names(ctx, &ff.duplicate))
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
    for (uint32_t c = 0; c < ctx->doc->clip_count; c++) {
        const anim_clip_expect *e = &ctx->expect[c];
        if (!any_owner(e))
            continue; /* no declared axis: nothing to route */
        clip_trajectory ct;
        measure_clip(ctx, &ff, c, &ct);
        for (int axis = 0; axis < AXIS_COUNT; axis++) {
            if (owner_of(e, (axis_id)axis) == ANIM_OWNER_UNSET)
                continue;
            if (clip_axis(ctx, rec, &ff, c, &ct, (axis_id)axis))
                return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory");
        }
    }
    return 0;
}
