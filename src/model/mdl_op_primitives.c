/* The primitive operations cube, plane, sphere and cylinder: closed (or,
 * for the plane, single-sided) meshes appended to the named object, centred
 * on the origin, created when the object does not exist yet. The client
 * places them afterwards with `transform` on the returned selection.
 *
 * Every face winds counter-clockwise seen from outside and its texture
 * appears upright and unmirrored from there, so for a quad with corners
 * top-left, bottom-left, bottom-right, top-right (counter-clockwise) the
 * UVs are (0,0), (0,1), (1,1), (1,0) in the glTF top-left convention. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "animsmith/math.h"
#include "model/mdl_ops.h"

/* Appends one face and selects it; normals (count entries) become
 * explicit corner normals when not NULL. 0, or -1 after mdl_nomem. */
static int put_face(mdl_ctx *ctx, mdl_object *o, const uint64_t *vids, const double (*uvs)[2],
                    uint32_t count, bool smooth, const double (*normals)[3])
{
    uint64_t fid = mdl_object_add_face(o, vids, uvs, count, 0, smooth);
    if (fid == 0)
        return mdl_nomem(ctx);
    if (normals) {
        const mdl_face *f = &o->faces[o->face_count - 1];
        for (uint32_t k = 0; k < count; k++) {
            mdl_corner *c = &o->corners[f->corner_first + k];
            c->normal[0] = normals[k][0];
            c->normal[1] = normals[k][1];
            c->normal[2] = normals[k][2];
            c->has_normal = true;
        }
    }
    return mdl_select_face(ctx, fid);
}

static int put_vertex(mdl_ctx *ctx, mdl_object *o, double x, double y, double z, uint64_t *id)
{
    double p[3] = {x, y, z};
    *id = mdl_object_add_vertex(o, p);
    if (*id == 0)
        return mdl_nomem(ctx);
    return mdl_select_vertex(ctx, *id);
}

/* The upright, unmirrored UVs of a quad listed top-left first, CCW. */
static const double quad_uvs[4][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}};

/* ---- cube */

/* Outward normal and up direction of each face; right = up x normal. */
static const int cube_sides[6][2][3] = {
    {{1, 0, 0}, {0, 1, 0}},  {{-1, 0, 0}, {0, 1, 0}}, {{0, 1, 0}, {0, 0, -1}},
    {{0, -1, 0}, {0, 0, 1}}, {{0, 0, 1}, {0, 1, 0}},  {{0, 0, -1}, {0, 1, 0}},
};

static int run_cube(mdl_ctx *ctx, const anim_json_value *op)
{
    double size[3];
    mdl_field_vec(op, "size", size, 3);
    mdl_object *o = mdl_target_object(ctx, op, true);
    if (!o || mdl_spend(ctx, 1 + 8 + 6 + 24) != 0)
        return -1;
    /* Vertex i sits at the + side of axis k when bit k of i is set. */
    uint64_t v[8];
    for (int i = 0; i < 8; i++) {
        if (put_vertex(ctx, o, (i & 1 ? 0.5 : -0.5) * size[0], (i & 2 ? 0.5 : -0.5) * size[1],
                       (i & 4 ? 0.5 : -0.5) * size[2], &v[i]) != 0)
            return -1;
    }
    for (int s = 0; s < 6; s++) {
        const int *n = cube_sides[s][0], *u = cube_sides[s][1];
        int r[3] = {u[1] * n[2] - u[2] * n[1], u[2] * n[0] - u[0] * n[2],
                    u[0] * n[1] - u[1] * n[0]};
        /* top-left, bottom-left, bottom-right, top-right */
        static const int ru[4][2] = {{-1, 1}, {-1, -1}, {1, -1}, {1, 1}};
        uint64_t vids[4];
        for (int k = 0; k < 4; k++) {
            int idx = 0;
            for (int a = 0; a < 3; a++) {
                int sign = n[a] + ru[k][0] * r[a] + ru[k][1] * u[a];
                if (sign > 0)
                    idx |= 1 << a;
            }
            vids[k] = v[idx];
        }
        if (put_face(ctx, o, vids, quad_uvs, 4, false, NULL) != 0)
            return -1;
    }
    return 0;
}

static const mdl_field cube_fields[] = {
    {.name = "size", .type = MDL_F_VEC3, .required = true, .min = 0, .min_open = true,
     .max = DBL_MAX, .description = "edge lengths along X, Y and Z in metres (each > 0)"},
    {0},
};

const mdl_op_def mdl_op_cube = {
    .op = "cube",
    .mesh_edit = true,
    .fields = cube_fields,
    .description = "appends a box centred on the origin: 8 shared vertices, 6 outward quads",
    .run = run_cube,
};

/* ---- plane */

static int run_plane(mdl_ctx *ctx, const anim_json_value *op)
{
    double size[2];
    mdl_field_vec(op, "size", size, 2);
    mdl_object *o = mdl_target_object(ctx, op, true);
    if (!o || mdl_spend(ctx, 1 + 4 + 1 + 4) != 0)
        return -1;
    double hx = 0.5 * size[0], hz = 0.5 * size[1];
    /* Seen from above, up is -Z and right is +X. */
    const double pos[4][2] = {{-hx, -hz}, {-hx, hz}, {hx, hz}, {hx, -hz}};
    uint64_t vids[4];
    for (int k = 0; k < 4; k++) {
        if (put_vertex(ctx, o, pos[k][0], 0.0, pos[k][1], &vids[k]) != 0)
            return -1;
    }
    return put_face(ctx, o, vids, quad_uvs, 4, false, NULL);
}

static const mdl_field plane_fields[] = {
    {.name = "size", .type = MDL_F_VEC2, .required = true, .min = 0, .min_open = true,
     .max = DBL_MAX, .description = "extent along X and Z in metres (each > 0)"},
    {0},
};

const mdl_op_def mdl_op_plane = {
    .op = "plane",
    .mesh_edit = true,
    .fields = plane_fields,
    .description = "appends one quad in the plane y = 0 facing +Y, centred on the origin",
    .run = run_plane,
};

/* ---- sphere and cylinder */

/* Angle phi around Y: x = sin(phi), z = cos(phi), so that increasing phi
 * (increasing u) moves to the right seen from outside. */
static void around(uint32_t j, uint32_t segments, double *s, double *c)
{
    double phi = 2.0 * ANIM_PI * (double)j / (double)segments;
    *s = sin(phi);
    *c = cos(phi);
}

/* One sphere vertex: its id and its unit direction from the centre. */
typedef struct sphere_vertex {
    uint64_t id;
    double dir[3];
} sphere_vertex;

static int sphere_vertex_put(mdl_ctx *ctx, mdl_object *o, double radius, sphere_vertex *sv,
                             double x, double y, double z)
{
    sv->dir[0] = x, sv->dir[1] = y, sv->dir[2] = z;
    return put_vertex(ctx, o, radius * x, radius * y, radius * z, &sv->id);
}

static int sphere_faces(mdl_ctx *ctx, mdl_object *o, const sphere_vertex *sv, uint32_t segs,
                        uint32_t rings, bool smooth)
{
    /* sv[0] is the north pole, sv[1 + (k - 1) * segs + j] vertex j of ring
     * k (1..rings-1), the last one the south pole. */
    const sphere_vertex *north = &sv[0], *south = &sv[1 + (size_t)segs * (rings - 1)];
    for (uint32_t k = 0; k < rings; k++) {
        double v0 = (double)k / (double)rings, v1 = (double)(k + 1) / (double)rings;
        const sphere_vertex *up = k ? &sv[1 + (size_t)(k - 1) * segs] : NULL;
        const sphere_vertex *dn = &sv[1 + (size_t)k * segs];
        for (uint32_t j = 0; j < segs; j++) {
            uint32_t jn = (j + 1) % segs;
            double u0 = (double)j / (double)segs, u1 = (double)(j + 1) / (double)segs;
            const sphere_vertex *c[4];
            double uvs[4][2];
            uint32_t n = 0;
            /* top-left, bottom-left, bottom-right, top-right; a pole
             * stands for both corners of its side, at mid-u. */
            if (k == 0) {
                c[n] = north, uvs[n][0] = 0.5 * (u0 + u1), uvs[n++][1] = 0.0;
            } else {
                c[n] = &up[j], uvs[n][0] = u0, uvs[n++][1] = v0;
            }
            if (k + 1 == rings) {
                c[n] = south, uvs[n][0] = 0.5 * (u0 + u1), uvs[n++][1] = 1.0;
            } else {
                c[n] = &dn[j], uvs[n][0] = u0, uvs[n++][1] = v1;
                c[n] = &dn[jn], uvs[n][0] = u1, uvs[n++][1] = v1;
            }
            if (k != 0)
                c[n] = &up[jn], uvs[n][0] = u1, uvs[n++][1] = v0;
            uint64_t vids[4];
            double normals[4][3];
            for (uint32_t i = 0; i < n; i++) {
                vids[i] = c[i]->id;
                for (int a = 0; a < 3; a++)
                    normals[i][a] = c[i]->dir[a];
            }
            if (put_face(ctx, o, vids, (const double(*)[2])uvs, n, smooth,
                         smooth ? (const double(*)[3])normals : NULL) != 0)
                return -1;
        }
    }
    /* The meridian u = 0 / u = 1: its vertices are shared, its UVs are not. */
    for (uint32_t k = 0; k < rings; k++) {
        uint64_t a = k == 0 ? north->id : sv[1 + (size_t)(k - 1) * segs].id;
        uint64_t b = k + 1 == rings ? south->id : sv[1 + (size_t)k * segs].id;
        if (mdl_object_set_edge_attr(o, a, b, true, 0.0) != 0)
            return mdl_nomem(ctx);
    }
    return 0;
}

static int run_sphere(mdl_ctx *ctx, const anim_json_value *op)
{
    double radius = mdl_field_f64(op, "radius", 1.0);
    uint32_t segs = (uint32_t)mdl_field_int(op, "segments", 16);
    uint32_t rings = (uint32_t)mdl_field_int(op, "rings", 8);
    bool smooth = mdl_field_bool(op, "smooth", true);
    mdl_object *o = mdl_target_object(ctx, op, true);
    size_t verts = 2 + (size_t)segs * (rings - 1), faces = (size_t)segs * rings;
    size_t corners = 4 * (size_t)segs * (rings - 2) + 6 * (size_t)segs;
    if (!o || mdl_spend(ctx, 1 + verts + faces + corners) != 0)
        return -1;
    sphere_vertex *sv = malloc(verts * sizeof *sv);
    if (!sv)
        return mdl_nomem(ctx);
    int rc = sphere_vertex_put(ctx, o, radius, &sv[0], 0.0, 1.0, 0.0);
    for (uint32_t k = 1; k < rings && rc == 0; k++) {
        double theta = ANIM_PI * (double)k / (double)rings;
        double y = cos(theta), r = sin(theta);
        for (uint32_t j = 0; j < segs && rc == 0; j++) {
            double s, c;
            around(j, segs, &s, &c);
            rc = sphere_vertex_put(ctx, o, radius, &sv[1 + (size_t)(k - 1) * segs + j], r * s, y,
                                   r * c);
        }
    }
    if (rc == 0)
        rc = sphere_vertex_put(ctx, o, radius, &sv[verts - 1], 0.0, -1.0, 0.0);
    if (rc == 0)
        rc = sphere_faces(ctx, o, sv, segs, rings, smooth);
    free(sv);
    return rc;
}

static const mdl_field sphere_fields[] = {
    {.name = "radius", .type = MDL_F_NUMBER, .required = true, .min = 0, .min_open = true,
     .max = DBL_MAX, .description = "radius in metres (> 0)"},
    {.name = "segments", .type = MDL_F_INTEGER, .required = true, .min = 3, .max = 128,
     .description = "vertices around each ring (3-128)"},
    {.name = "rings", .type = MDL_F_INTEGER, .required = true, .min = 2, .max = 128,
     .description = "bands from pole to pole (2-128)"},
    {.name = "smooth", .type = MDL_F_BOOL, .required = false,
     .description = "smooth faces with analytic radial corner normals (default true)"},
    {0},
};

const mdl_op_def mdl_op_sphere = {
    .op = "sphere",
    .mesh_edit = true,
    .fields = sphere_fields,
    .description = "appends a closed UV sphere centred on the origin with a marked UV seam",
    .run = run_sphere,
};

static int run_cylinder(mdl_ctx *ctx, const anim_json_value *op)
{
    double radius = mdl_field_f64(op, "radius", 1.0);
    double half = 0.5 * mdl_field_f64(op, "height", 1.0);
    uint32_t segs = (uint32_t)mdl_field_int(op, "segments", 16);
    bool smooth = mdl_field_bool(op, "smooth", true);
    mdl_object *o = mdl_target_object(ctx, op, true);
    if (!o || mdl_spend(ctx, 1 + 2 * (uint64_t)segs + (segs + 2) + 6 * (uint64_t)segs) != 0)
        return -1;
    uint64_t top[128], bot[128];
    for (uint32_t j = 0; j < segs; j++) {
        double s, c;
        around(j, segs, &s, &c);
        if (put_vertex(ctx, o, radius * s, -half, radius * c, &bot[j]) != 0 ||
            put_vertex(ctx, o, radius * s, half, radius * c, &top[j]) != 0)
            return -1;
    }
    for (uint32_t j = 0; j < segs; j++) {
        uint32_t jn = (j + 1) % segs;
        double u0 = (double)j / (double)segs, u1 = (double)(j + 1) / (double)segs;
        const uint64_t vids[4] = {top[j], bot[j], bot[jn], top[jn]};
        const double uvs[4][2] = {{u0, 0}, {u0, 1}, {u1, 1}, {u1, 0}};
        double s0, c0, s1, c1;
        around(j, segs, &s0, &c0);
        around(jn, segs, &s1, &c1);
        const double normals[4][3] = {{s0, 0, c0}, {s0, 0, c0}, {s1, 0, c1}, {s1, 0, c1}};
        if (put_face(ctx, o, vids, uvs, 4, smooth, smooth ? normals : NULL) != 0)
            return -1;
    }
    /* Caps map the disc onto the whole texture, upright seen from outside:
     * the top seen from above has -Z up, the bottom seen from below +Z. */
    uint64_t vids[128];
    double uvs[128][2];
    for (uint32_t j = 0; j < segs; j++) {
        double s, c;
        around(j, segs, &s, &c);
        vids[j] = top[j];
        uvs[j][0] = 0.5 + 0.5 * s;
        uvs[j][1] = 0.5 + 0.5 * c;
    }
    if (put_face(ctx, o, vids, (const double(*)[2])uvs, segs, false, NULL) != 0)
        return -1;
    for (uint32_t k = 0; k < segs; k++) {
        uint32_t j = (segs - k) % segs; /* reversed, starting at 0 */
        double s, c;
        around(j, segs, &s, &c);
        vids[k] = bot[j];
        uvs[k][0] = 0.5 + 0.5 * s;
        uvs[k][1] = 0.5 - 0.5 * c;
    }
    if (put_face(ctx, o, vids, (const double(*)[2])uvs, segs, false, NULL) != 0)
        return -1;
    if (mdl_object_set_edge_attr(o, bot[0], top[0], true, 0.0) != 0)
        return mdl_nomem(ctx);
    return 0;
}

static const mdl_field cylinder_fields[] = {
    {.name = "radius", .type = MDL_F_NUMBER, .required = true, .min = 0, .min_open = true,
     .max = DBL_MAX, .description = "radius in metres (> 0)"},
    {.name = "height", .type = MDL_F_NUMBER, .required = true, .min = 0, .min_open = true,
     .max = DBL_MAX, .description = "height along Y in metres (> 0), centred on the origin"},
    {.name = "segments", .type = MDL_F_INTEGER, .required = true, .min = 3, .max = 128,
     .description = "side quads around the axis (3-128)"},
    {.name = "smooth", .type = MDL_F_BOOL, .required = false,
     .description = "smooth sides with radial corner normals (default true); caps stay flat"},
    {0},
};

const mdl_op_def mdl_op_cylinder = {
    .op = "cylinder",
    .mesh_edit = true,
    .fields = cylinder_fields,
    .description = "appends a closed cylinder along Y centred on the origin, with flat caps",
    .run = run_cylinder,
};
