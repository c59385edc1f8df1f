/* `measure --format text`: one summary line per clip, then the
 * static asset evidence in short lines. A human view of the JSON record:
 * untrusted names go through text_atom, the trajectory bone is shown as a
 * TOML basic string so it can be pasted into animsmith.toml. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/measure.h"
#include "animsmith/measure_loop.h"
#include "animsmith/numfmt.h"
#include "animsmith/text.h"

static void atom(anim_strbuf *out, const char *s)
{
    if (s)
        anim_text_atom(out, s, strlen(s));
}

static void put_uint(anim_strbuf *out, uint64_t v)
{
    anim_strbuf_printf(out, "%llu", (unsigned long long)v);
}

/* " root {role}#{index}:{name} ..." (the root part of the summary line). */
static void root_text(const anim_root_trajectory *t, anim_strbuf *out)
{
    if (t->availability == ANIM_AVAIL_UNAVAILABLE) {
        anim_strbuf_puts(out, " root=unavailable");
        return;
    }
    if (t->availability != ANIM_AVAIL_MEASURED)
        return;
    anim_strbuf_printf(out, " root %s#%u:", anim_root_source_name(t->source), t->bone_index);
    const char *name = t->bone_name ? t->bone_name : "";
    anim_text_quote_toml(out, name, strlen(name));
    if (t->translation_availability == ANIM_AVAIL_MEASURED) {
        const anim_root_translation *tr = &t->translation;
        anim_strbuf_puts(out, " \xce\x94xz=(");
        anim_strbuf_put_fixed(out, tr->dx_m, 3);
        anim_strbuf_putc(out, ',');
        anim_strbuf_put_fixed(out, tr->dz_m, 3);
        anim_strbuf_puts(out, ")m xz\xce\xa3=");
        anim_strbuf_put_fixed(out, tr->travel_m, 3);
        anim_strbuf_puts(out, "m \xce\x94y=");
        anim_strbuf_put_fixed(out, tr->dy_m, 3);
        anim_strbuf_puts(out, "m y=[");
        anim_strbuf_put_fixed(out, tr->y_min_m, 3);
        anim_strbuf_putc(out, ',');
        anim_strbuf_put_fixed(out, tr->y_max_m, 3);
        anim_strbuf_puts(out, "]m");
    } else {
        anim_strbuf_puts(out, " translation=unavailable");
    }
    if (t->yaw_availability == ANIM_AVAIL_MEASURED) {
        const anim_root_yaw *y = &t->yaw;
        anim_strbuf_printf(out, " yaw[%s]=", anim_heading_axis_label(y->axis));
        anim_strbuf_put_fixed(out, y->net_deg, 2);
        anim_strbuf_puts(out, "\xc2\xb0 unwrap=");
        anim_strbuf_put_fixed(out, y->unwrapped_deg, 2);
        anim_strbuf_puts(out, "\xc2\xb0 travel=");
        anim_strbuf_put_fixed(out, y->travel_deg, 2);
        anim_strbuf_puts(out, "\xc2\xb0");
    } else {
        anim_strbuf_puts(out, " yaw=unavailable");
    }
}

static void clip_line(const anim_clip_measurements *c, anim_strbuf *out)
{
    uint64_t channels = 0;
    for (uint32_t i = 0; i < c->bone_channel_count; i++)
        for (unsigned p = 0; p < 3; p++)
            channels += (c->bone_channels[i].properties >> p) & 1u;
    anim_strbuf_puts(out, "  ");
    atom(out, c->name);
    anim_strbuf_puts(out, ": ");
    anim_strbuf_put_fixed(out, c->duration_s, 3);
    anim_strbuf_printf(out, "s, %u frames, %u animated bones, ", c->frame_count,
                       c->animated_bone_count);
    put_uint(out, channels);
    anim_strbuf_puts(out, " bone channels");
    if (c->endpoint)
        anim_loop_endpoint_text(c->endpoint, out);
    if (c->frame_grid == ANIM_AVAIL_MEASURED) {
        anim_strbuf_puts(out, " grid=");
        anim_strbuf_put_fixed(out, c->frame_grid_fps, 3);
        anim_strbuf_puts(out, "fps/");
        put_uint(out, c->frame_grid_intervals);
        anim_strbuf_puts(out, " intervals");
    }
    if (c->loop)
        anim_loop_continuity_text(c->loop, out);
    if (c->foot_cycle) {
        anim_loop_seam_ratio_text(c->foot_cycle, out);
        anim_gait_text(c->foot_cycle, out);
    }
    root_text(&c->trajectory, out);
    anim_strbuf_putc(out, '\n');
}

/* ---- static asset evidence ---- */

/* 6 decimals, or exponent form with 6 decimals (no '+', no zero padding in the
 * exponent) when non-zero and |v| < 1e-4 or >= 1e6. */
static void put_fact(anim_strbuf *out, double v)
{
    double a = fabs(v);
    if (v != 0.0 && isfinite(v) && (a < 1e-4 || a >= 1e6)) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.6e", v);
        char *e = strchr(buf, 'e');
        if (e) {
            *e = '\0';
            int exp10 = atoi(e + 1);
            anim_strbuf_printf(out, "%se%d", buf, exp10);
            return;
        }
    }
    anim_strbuf_put_fixed(out, v, 6);
}

static void put_vec3_fixed(anim_strbuf *out, double x, double y, double z)
{
    anim_strbuf_putc(out, '(');
    anim_strbuf_put_fixed(out, x, 3);
    anim_strbuf_puts(out, ", ");
    anim_strbuf_put_fixed(out, y, 3);
    anim_strbuf_puts(out, ", ");
    anim_strbuf_put_fixed(out, z, 3);
    anim_strbuf_putc(out, ')');
}

static void put_linear(anim_strbuf *out, const anim_linear_facts *f)
{
    const char *cls = anim_linear_class_name(f->classification);
    /* "unit_orthonormal" -> "unit orthonormal" */
    for (const char *p = cls ? cls : ""; *p; p++)
        anim_strbuf_putc(out, *p == '_' ? ' ' : *p);
    if (f->classification == ANIM_LINEAR_NON_FINITE)
        return;
    anim_strbuf_puts(out, " axes=(");
    for (int i = 0; i < 3; i++) {
        if (i)
            anim_strbuf_puts(out, ", ");
        put_fact(out, f->axis_lengths[i]);
    }
    anim_strbuf_puts(out, ") det=");
    put_fact(out, f->determinant);
    anim_strbuf_puts(out, " orientation=");
    anim_strbuf_puts(out, f->orientation == ANIM_ORIENTATION_NEGATIVE ? "-"
                          : f->orientation == ANIM_ORIENTATION_ZERO  ? "0"
                                                                     : "+");
    if (f->has_uniform_scale) {
        anim_strbuf_puts(out, ", uniform=");
        put_fact(out, f->uniform_scale);
    }
}

static void put_aabb(anim_strbuf *out, const anim_aabb *b)
{
    put_vec3_fixed(out, b->min[0], b->min[1], b->min[2]);
    anim_strbuf_puts(out, "..");
    put_vec3_fixed(out, b->max[0], b->max[1], b->max[2]);
    anim_strbuf_putc(out, 'm');
}

static void asset_lines(const anim_asset_measurements *a, anim_strbuf *out)
{
    anim_strbuf_printf(out, "  material resources: %u materials, %u textures, %u images (%s)\n",
                       a->material_count, a->texture_count, a->image_count,
                       a->material_resources_complete ? "complete" : "unavailable");
    for (uint32_t i = 0; i < a->mesh_count; i++) {
        const anim_mesh_measurements *m = &a->meshes[i];
        anim_strbuf_printf(out, "  mesh #%u ", m->mesh_index);
        atom(out, m->name);
        anim_strbuf_printf(out, ": %u primitives, ", m->primitive_count);
        put_uint(out, m->vertex_count);
        anim_strbuf_puts(out, " vertices, ");
        if (m->has_geometry) {
            const anim_aabb *b = &m->geometry_aabb;
            anim_strbuf_puts(out, "geometry bbox size ");
            put_vec3_fixed(out, (double)b->max[0] - b->min[0], (double)b->max[1] - b->min[1],
                           (double)b->max[2] - b->min[2]);
            anim_strbuf_puts(out, "m, geometry centroid ");
            put_vec3_fixed(out, m->geometry_centroid[0], m->geometry_centroid[1],
                           m->geometry_centroid[2]);
            anim_strbuf_puts(out, "m\n");
        } else {
            anim_strbuf_puts(out, "geometry bbox unavailable, geometry centroid unavailable\n");
        }
    }
    for (uint32_t i = 0; i < a->node_instance_count; i++) {
        const anim_node_instance_measurements *n = &a->node_instances[i];
        anim_strbuf_printf(out, "  mesh instance node #%u ", n->node_index);
        atom(out, n->node_name);
        anim_strbuf_printf(out, " -> mesh #%u: ", n->mesh_index);
        if (n->status == ANIM_NODE_AABB_AVAILABLE) {
            anim_strbuf_puts(out, "static node-world bbox ");
            put_aabb(out, &n->static_node_world_aabb);
        } else {
            anim_strbuf_puts(out, "static node-world bbox unavailable (");
            anim_strbuf_puts(out, n->status == ANIM_NODE_AABB_NO_FINITE_POSITIONS
                                      ? "no finite positions"
                                  : n->status == ANIM_NODE_AABB_SKINNED_DEFORMATION_EXCLUDED
                                      ? "skinned deformation excluded"
                                      : "non-finite transform");
            anim_strbuf_putc(out, ')');
        }
        anim_strbuf_putc(out, '\n');
    }
    for (uint32_t i = 0; i < a->scene_count; i++) {
        const anim_scene_measurements *s = &a->scenes[i];
        anim_strbuf_printf(out, "  scene #%u", s->scene_index);
        if (s->name) {
            anim_strbuf_putc(out, ' ');
            atom(out, s->name);
        }
        if (s->scene_index == a->default_scene_index)
            anim_strbuf_puts(out, " [default]");
        anim_strbuf_puts(out, ": ");
        put_uint(out, s->instance_count);
        anim_strbuf_puts(out, " instances");
        if (s->has_aabb) {
            anim_strbuf_puts(out, " static scene-world bbox ");
            put_aabb(out, &s->static_scene_world_aabb);
        } else {
            anim_strbuf_puts(out, " static scene-world bbox unavailable");
        }
        if (s->excluded_instance_count) {
            anim_strbuf_puts(out, ", ");
            put_uint(out, s->excluded_instance_count);
            anim_strbuf_puts(out, " excluded");
        }
        anim_strbuf_putc(out, '\n');
    }
    for (uint32_t i = 0; i < a->skeleton_node_count; i++) {
        const anim_skeleton_node_measurements *n = &a->skeleton_nodes[i];
        anim_strbuf_printf(out, "  source node #%u", n->node_index);
        if (n->name) {
            anim_strbuf_putc(out, ' ');
            atom(out, n->name);
        }
        anim_strbuf_puts(out, ": parent-space translation ");
        if (n->local_kind == ANIM_LOCAL_REST_TRS) {
            put_vec3_fixed(out, n->translation[0], n->translation[1], n->translation[2]);
            anim_strbuf_putc(out, 'm');
        } else if (n->local_kind == ANIM_LOCAL_REST_MATRIX) {
            put_vec3_fixed(out, n->matrix[12], n->matrix[13], n->matrix[14]);
            anim_strbuf_puts(out, "m (matrix)");
        } else {
            anim_strbuf_puts(out, "unavailable");
        }
        anim_strbuf_puts(out, "; rest-world translation ");
        if (n->world_status == ANIM_REST_WORLD_AVAILABLE) {
            put_vec3_fixed(out, n->rest_world_matrix[12], n->rest_world_matrix[13],
                           n->rest_world_matrix[14]);
            anim_strbuf_puts(out, "m; rest-world linear ");
            put_linear(out, &n->rest_world_linear);
        } else {
            anim_strbuf_puts(out, "unavailable; rest-world linear unavailable");
        }
        anim_strbuf_putc(out, '\n');
    }
    for (uint32_t i = 0; i < a->skin_count; i++) {
        const anim_skin_measurements *s = &a->skins[i];
        anim_strbuf_printf(out, "  skin #%u", s->skin_index);
        if (s->name) {
            anim_strbuf_putc(out, ' ');
            atom(out, s->name);
        }
        anim_strbuf_printf(out, ": %u joints, bind %s\n", s->joint_count,
                           anim_bind_summary_class_name(s->summary));
    }
}

/* A bare document's minimal static evidence (no asset measured). */
static void minimal_lines(const anim_measurements *m, anim_strbuf *out)
{
    anim_strbuf_puts(out, "  material resources: 0 materials, 0 textures, 0 images (unavailable)\n");
    if (!m->has_mesh_domain)
        return;
    for (uint32_t s = 0; s < m->scene_count; s++) {
        anim_strbuf_printf(out, "  scene #%u", s);
        if (m->scene_names && m->scene_names[s]) {
            anim_strbuf_putc(out, ' ');
            atom(out, m->scene_names[s]);
        }
        if (s == m->default_scene)
            anim_strbuf_puts(out, " [default]");
        anim_strbuf_puts(out, ": 0 instances static scene-world bbox unavailable\n");
    }
}

void anim_render_measure_text(const anim_measure_file *files, size_t n, anim_strbuf *out)
{
    for (size_t f = 0; f < n; f++) {
        atom(out, files[f].path);
        anim_strbuf_puts(out, ":\n");
        const anim_measurements *m = files[f].measurements;
        if (!m)
            continue;
        for (uint32_t c = 0; c < m->clip_count; c++)
            clip_line(&m->clips[c], out);
        if (m->asset)
            asset_lines(m->asset, out);
        else
            minimal_lines(m, out);
    }
}
