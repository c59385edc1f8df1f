/* engine-unit-scale: what Bevy 0.19.0's glTF loader makes of the file's
 * lengths and hierarchy (Bevy revisions 2 and 3). glTF defines lengths in
 * metres and the loader applies no scale conversion, so one glTF metre is
 * one Bevy world length unit; what an attachment really sees is that
 * mapping times the scale it inherits through the source hierarchy.
 *
 * Facets, in this order:
 *   unit_mapping         the file: the 1:1 mapping and the two rotation settings;
 *   scene_entity         each source scene's root entity (Scene{i});
 *   primitive_child      each mesh primitive's child entity under its node
 *                        (created, or suppressed by load_meshes = "empty";
 *                        the node's own entity is kept either way);
 *   selected_node        each [runtime_nodes] selector's node: its rest-world
 *                        uniform scale, i.e. world length units per metre.
 * A selector that resolves to no node or to several, and a node under an
 * authored matrix that is not a translation/rotation/scale (Bevy keeps a
 * node's transform as TRS, so a sheared or projective matrix cannot
 * survive), are blocking work, not guesses. The caller-owned world root
 * the scene is spawned under is outside the prediction.
 *
 * Prediction only: never a finding, and the measurements and the
 * rest-world-scale policy are untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/strbuf.h"
#include "checks/checks.h"
#include "checks/engine_bevy.h"
#include "checks/node_selector.h"
#include "checks/rest_world.h"

#define BASIS_MAX 12

CHECK_APPLIES(engine_unit_scale)
{
    return engine_bevy_applies(ctx, ENGINE_BEVY_R2 | ENGINE_BEVY_R3);
}

typedef struct {
    anim_lint_context *ctx;
    anim_check_record *rec;
    engine_bevy_setting env, rotate_scene, rotate_meshes, load_meshes;
    anim_mat4 *world;          /* rest-world matrices, on first selector */
    rest_world_status *status;
    uint32_t *matches;
    bool *reported;            /* per bone: a selected_node facet exists */
} unit_state;

/* An available facet, or (when the handler environment is unresolved)
 * the same scope blocked with the basis it has. */
static int emit(unit_state *st, const char *code, const char *subject, const char *kind,
                const anim_field *result, uint32_t result_count, anim_basis_row *basis,
                uint32_t basis_count)
{
    engine_bevy_setting_basis(&st->env, basis, &basis_count);
    static const char *const unresolved[1] = {ENGINE_BEVY_SETTING_UNRESOLVED};
    anim_prediction_facet f;
    memset(&f, 0, sizeof f);
    f.scope.code = code;
    f.scope.subject = subject;
    f.basis = basis;
    f.basis_count = basis_count;
    if (st->env.resolved) {
        f.state = ANIM_FACET_AVAILABLE;
        f.result_kind = kind;
        f.result = result;
        f.result_count = result_count;
    } else {
        f.state = ANIM_FACET_REQUIRED_UNAVAILABLE;
        f.reasons = unresolved;
        f.reason_count = 1;
    }
    return anim_check_facet(st->ctx, st->rec, &f);
}

static int unit_mapping(unit_state *st)
{
    anim_field result[5] = {anim_field_text("gltf_length_unit", "metre"),
                            anim_field_int("bevy_world_length_units_per_metre", 1),
                            anim_field_text("loader_scale_conversion", "none"),
                            anim_field_bool("rotate_scene_entity", st->rotate_scene.boolean),
                            anim_field_bool("rotate_meshes", st->rotate_meshes.boolean)};
    anim_basis_row basis[BASIS_MAX];
    uint32_t n = 0;
    engine_bevy_fact(st->ctx, basis, &n, ENGINE_BEVY_FACT_LENGTH_UNIT);
    engine_bevy_fact(st->ctx, basis, &n, ENGINE_BEVY_FACT_UNITS_PER_METRE);
    engine_bevy_fact(st->ctx, basis, &n, ENGINE_BEVY_FACT_SCALE_CONVERSION);
    engine_bevy_setting_basis(&st->rotate_scene, basis, &n);
    engine_bevy_setting_basis(&st->rotate_meshes, basis, &n);
    return emit(st, "unit_mapping", NULL, "unit_mapping", result, 5, basis, n);
}

static int scenes(unit_state *st)
{
    const anim_doc *doc = st->ctx->doc;
    for (uint32_t s = 0; s < doc->scene_count; s++) {
        char subject[32], pointer[32];
        snprintf(subject, sizeof subject, "Scene%u", s);
        snprintf(pointer, sizeof pointer, "/scenes/%u", s);
        anim_field result[3] = {anim_field_text("entity", "created"),
                                anim_field_int("scene_root_count", doc->scenes[s].node_count),
                                anim_field_bool("rotation_applied", st->rotate_scene.boolean)};
        anim_basis_row basis[BASIS_MAX];
        uint32_t n = 0;
        basis[n].kind = ANIM_BASIS_RAW_SOURCE;
        basis[n++].value = anim_field_text(pointer, doc->scenes[s].name);
        engine_bevy_fact(st->ctx, basis, &n, ENGINE_BEVY_FACT_SCENE_LABEL);
        engine_bevy_setting_basis(&st->rotate_scene, basis, &n);
        if (emit(st, "scene_entity", subject, "scene_entity", result, 3, basis, n))
            return -1;
    }
    return 0;
}

/* How many source scenes instantiate each bone: the loader spawns a scene
 * from its root nodes down, so a node outside every scene gets no entity.
 * Bones are parent-first, so a child inherits its root's count in one
 * pass. NULL when out of memory. */
static uint32_t *scene_instances(const anim_doc *doc)
{
    uint32_t *inst = calloc(doc->bone_count ? doc->bone_count : 1, sizeof *inst);
    if (!inst)
        return NULL;
    for (uint32_t s = 0; s < doc->scene_count; s++)
        for (uint32_t k = 0; k < doc->scenes[s].node_count; k++) {
            uint32_t node = doc->scenes[s].nodes[k];
            uint32_t b = node < doc->node_count ? doc->node_to_bone[node] : ANIM_NONE;
            if (b < doc->bone_count && doc->bones[b].parent == ANIM_NONE)
                inst[b]++;
        }
    for (uint32_t b = 0; b < doc->bone_count; b++)
        if (doc->bones[b].parent < b)
            inst[b] = inst[doc->bones[b].parent];
    return inst;
}

static int primitive_children(unit_state *st)
{
    const anim_doc *doc = st->ctx->doc;
    bool suppress = st->load_meshes.word && strcmp(st->load_meshes.word, "empty") == 0;
    uint32_t *inst = scene_instances(doc);
    if (!inst)
        return -1;
    int rc = 0;
    for (uint32_t node = 0; rc == 0 && node < doc->node_count; node++) {
        uint32_t b = doc->node_to_bone[node];
        if (b >= doc->bone_count)
            continue;
        uint32_t m = doc->bones[b].mesh;
        if (m == ANIM_NONE || m >= doc->mesh_count)
            continue;
        uint32_t instances = inst[b];
        const char *node_entity = instances ? "created" : "not_instantiated";
        const char *outcome = !instances ? "not_instantiated" : suppress ? "suppressed" : "created";
        for (uint32_t p = 0; rc == 0 && p < doc->meshes[m].primitive_count; p++) {
            char subject[96], mesh_ptr[32], prims_ptr[40];
            snprintf(subject, sizeof subject, "GltfNode%u/Mesh%u/Primitive%u", node, m, p);
            snprintf(mesh_ptr, sizeof mesh_ptr, "/nodes/%u/mesh", node);
            snprintf(prims_ptr, sizeof prims_ptr, "/meshes/%u/primitives", m);
            anim_field result[6] = {anim_field_text("outcome", outcome),
                                    anim_field_text("node_entity", node_entity),
                                    anim_field_int("node_index", node),
                                    anim_field_int("mesh_index", m),
                                    anim_field_int("primitive_index", p),
                                    anim_field_int("scene_instance_count", instances)};
            anim_basis_row basis[BASIS_MAX];
            uint32_t n = 0;
            basis[n].kind = ANIM_BASIS_RAW_SOURCE;
            basis[n++].value = anim_field_int(mesh_ptr, m);
            basis[n].kind = ANIM_BASIS_RAW_SOURCE;
            basis[n++].value = anim_field_int(prims_ptr, doc->meshes[m].primitive_count);
            engine_bevy_fact(st->ctx, basis, &n, ENGINE_BEVY_FACT_PRIMITIVE_LABEL);
            engine_bevy_setting_basis(&st->load_meshes, basis, &n);
            rc = emit(st, "primitive_child", subject, "primitive_child", result, 6, basis, n);
        }
    }
    free(inst);
    return rc;
}

static int blocked(unit_state *st, const char *subject, const char *reason, anim_basis_row *basis,
                   uint32_t n)
{
    const char *reasons[1] = {reason};
    engine_bevy_setting_basis(&st->env, basis, &n);
    anim_prediction_facet f;
    memset(&f, 0, sizeof f);
    f.scope.code = "selected_node";
    f.scope.subject = subject;
    f.state = ANIM_FACET_REQUIRED_UNAVAILABLE;
    f.basis = basis;
    f.basis_count = n;
    f.reasons = reasons;
    f.reason_count = 1;
    return anim_check_facet(st->ctx, st->rec, &f);
}

/* Every authored matrix from the node up to its source root must be a
 * TRS for the loader's Transform to reproduce the authored world. */
static bool trs_ancestry(const anim_doc *doc, uint32_t b)
{
    for (uint32_t a = b; a != ANIM_NONE; a = doc->bones[a].parent < a ? doc->bones[a].parent
                                                                       : ANIM_NONE)
        if (!rest_world_local_is_trs(&doc->bones[a]))
            return false;
    return true;
}

static int selected_node(unit_state *st, const char *sel)
{
    const anim_doc *doc = st->ctx->doc;
    anim_basis_row basis[BASIS_MAX];
    uint32_t n = 0;
    basis[n].kind = ANIM_BASIS_CONFIG;
    basis[n++].value = anim_field_text("runtime_nodes.selectors", sel);
    uint32_t count = node_selector_match(doc, sel, st->matches);
    if (count != 1)
        return blocked(st, sel, count ? "selector_ambiguous" : "selector_no_match", basis, n);
    uint32_t b = st->matches[0];
    if (st->reported[b])
        return 0; /* several selectors naming one node: one facet */
    st->reported[b] = true;
    anim_strbuf path = ANIM_STRBUF_INIT;
    node_selector_path(doc, b, &path);
    if (path.failed || !path.data) {
        anim_strbuf_free(&path);
        return -1;
    }
    char pointer[32];
    snprintf(pointer, sizeof pointer, "/nodes/%u", doc->bones[b].node);
    basis[n].kind = ANIM_BASIS_RAW_SOURCE;
    basis[n++].value = anim_field_text(pointer, doc->bones[b].has_name ? doc->bones[b].name : NULL);
    engine_bevy_fact(st->ctx, basis, &n, ENGINE_BEVY_FACT_UNITS_PER_METRE);
    int rc;
    if (!trs_ancestry(doc, b)) {
        rc = blocked(st, path.data, "unsupported_matrix_ancestry", basis, n);
    } else if (st->status[b] != REST_WORLD_OK) {
        rc = blocked(st, path.data, "rest_world_unavailable", basis, n);
    } else {
        rest_lin_facts lf;
        rest_world_classify(&st->world[b], &lf);
        bool uniform =
            lf.cls == REST_LIN_UNIT_ORTHONORMAL || lf.cls == REST_LIN_UNIFORM_SCALED;
        anim_field scale = uniform ? anim_field_number("world_uniform_scale", lf.uniform_scale)
                                   : anim_field_text("world_uniform_scale", NULL);
        anim_field per_metre =
            uniform ? anim_field_number("world_length_units_per_metre", lf.uniform_scale)
                    : anim_field_text("world_length_units_per_metre", NULL);
        anim_field result[4] = {anim_field_int("node_index", doc->bones[b].node),
                                anim_field_text("classification", rest_world_class_name(lf.cls)),
                                scale, per_metre};
        if (lf.cls == REST_LIN_NON_FINITE)
            rc = blocked(st, path.data, "rest_world_unavailable", basis, n);
        else
            rc = emit(st, "selected_node", path.data, "selected_node", result, 4, basis, n);
    }
    anim_strbuf_free(&path);
    return rc;
}

static bool listed_earlier(const anim_string_list *list, uint32_t i)
{
    for (uint32_t j = 0; j < i; j++)
        if (strcmp(list->items[j], list->items[i]) == 0)
            return true;
    return false;
}

static int selected_nodes(unit_state *st)
{
    const anim_doc *doc = st->ctx->doc;
    const anim_string_list *sels = &st->ctx->config->runtime_selectors;
    if (!sels->count)
        return 0;
    size_t n = doc->node_count > doc->bone_count ? doc->node_count : doc->bone_count;
    n = n ? n : 1;
    st->world = calloc(n, sizeof *st->world);
    st->status = calloc(n, sizeof *st->status);
    st->matches = calloc(n, sizeof *st->matches);
    st->reported = calloc(n, sizeof *st->reported);
    if (!st->world || !st->status || !st->matches || !st->reported)
        return -1;
    rest_world_compose(doc, st->world, st->status);
    for (uint32_t i = 0; i < sels->count; i++)
        if (!listed_earlier(sels, i) && selected_node(st, sels->items[i]))
            return -1;
    return 0;
}

CHECK_RUN(engine_unit_scale)
{
    unit_state st;
    memset(&st, 0, sizeof st);
    st.ctx = ctx;
    st.rec = rec;
    st.env = engine_bevy_setting_get(ctx, "extension_handler_environment");
    st.rotate_scene = engine_bevy_setting_get(ctx, "rotate_scene_entity");
    st.rotate_meshes = engine_bevy_setting_get(ctx, "rotate_meshes");
    st.load_meshes = engine_bevy_setting_get(ctx, "load_meshes");
    int rc = unit_mapping(&st) || scenes(&st) || primitive_children(&st) || selected_nodes(&st)
                 ? -1
                 : 0;
    free(st.world);
    free(st.status);
    free(st.matches);
    free(st.reported);
    return rc ? anim_error_set(err, ANIM_ERR_NOMEM, "out of memory") : 0;
}
