/* Scene-wide facts of an FBX file that need no object graph: the axis and
 * unit change into glTF space, the frame rate of a TimeMode, the scene's
 * notes and the node lookup by object.
 *
 * The file states which of its axes points right (CoordAxis), up (UpAxis)
 * and to the front (FrontAxis), each with a sign; glTF's are +X, +Y, +Z.
 * The axis matrix maps each file axis onto its glTF counterpart, so it is
 * a signed permutation: a rotation for a right-handed file, a reflection
 * for a left-handed one. Transforms convert by conjugation with
 * C = axis * metres_per_unit, under which rotations stay rotations even
 * when C mirrors. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "io/fbx/fbx_scene.h"

int anim_fbx_scene_axes(anim_fbx_scene *scene, anim_error *err)
{
    double usf = scene->unit_scale_factor;
    if (!isfinite(usf) || !(usf > 0.0))
        return anim_error_set(err, ANIM_ERR_INVALID,
                              "GlobalSettings UnitScaleFactor %g: expected a positive number", usf);
    struct {
        const char *name;
        int axis, sign;
    } ax[3] = {{"CoordAxis", scene->coord_axis, scene->coord_sign},
               {"UpAxis", scene->up_axis, scene->up_sign},
               {"FrontAxis", scene->front_axis, scene->front_sign}};
    bool used[3] = {false, false, false};
    for (int k = 0; k < 3; k++) {
        if (ax[k].axis < 0 || ax[k].axis > 2)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "GlobalSettings %s %d: expected 0 (X), 1 (Y) or 2 (Z)",
                                  ax[k].name, ax[k].axis);
        if (ax[k].sign != 1 && ax[k].sign != -1)
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "GlobalSettings %sSign %d: expected 1 or -1", ax[k].name,
                                  ax[k].sign);
        if (used[ax[k].axis])
            return anim_error_set(err, ANIM_ERR_INVALID,
                                  "GlobalSettings %s %d names an axis already used by another of "
                                  "CoordAxis, UpAxis, FrontAxis",
                                  ax[k].name, ax[k].axis);
        used[ax[k].axis] = true;
    }
    memset(scene->axis, 0, sizeof scene->axis);
    /* Column j (file axis j) holds +-e_k, the glTF axis k it becomes. */
    for (int k = 0; k < 3; k++)
        scene->axis[ax[k].axis * 3 + k] = (double)ax[k].sign;
    scene->metres_per_unit = usf / 100.0;
    return 0;
}

double anim_fbx_frame_rate(int64_t time_mode, double custom_rate)
{
    /* FbxTime::EMode. Mode 0 (eDefaultMode) defers to the reading
     * application's global setting: the file itself states no rate. */
    static const double rates[19] = {
        0.0,              /* 0 default */
        120.0,            /* 1 */
        100.0,            /* 2 */
        60.0,             /* 3 */
        50.0,             /* 4 */
        48.0,             /* 5 */
        30.0,             /* 6 */
        30.0,             /* 7 30 drop */
        30000.0 / 1001.0, /* 8 NTSC drop frame */
        30000.0 / 1001.0, /* 9 NTSC full frame */
        25.0,             /* 10 PAL */
        24.0,             /* 11 cinema */
        1000.0,           /* 12 milliseconds */
        24000.0 / 1001.0, /* 13 film full frame */
        0.0,              /* 14 custom */
        96.0,             /* 15 */
        72.0,             /* 16 */
        60000.0 / 1001.0, /* 17 */
        120000.0 / 1001.0 /* 18 */
    };
    if (time_mode == 14)
        return isfinite(custom_rate) && custom_rate > 0.0 ? custom_rate : 0.0;
    if (time_mode < 0 || time_mode > 18)
        return 0.0;
    return rates[time_mode];
}

void anim_fbx_convert_direction(const anim_fbx_scene *scene, const double in[3], double out[3])
{
    const double *a = scene->axis;
    double t[3];
    for (int r = 0; r < 3; r++)
        t[r] = a[r] * in[0] + a[3 + r] * in[1] + a[6 + r] * in[2];
    memcpy(out, t, sizeof t);
}

void anim_fbx_convert_point(const anim_fbx_scene *scene, const double in[3], double out[3])
{
    anim_fbx_convert_direction(scene, in, out);
    for (int r = 0; r < 3; r++)
        out[r] *= scene->metres_per_unit;
}

void anim_fbx_convert_matrix(const anim_fbx_scene *scene, const double in[16], double out[16])
{
    /* C * M * C^-1 with C = k * A, A orthogonal: the linear part is
     * A * M3 * A^T (k cancels), the translation k * A * t. */
    const double *a = scene->axis;
    double am[9], lin[9];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            am[c * 3 + r] = a[r] * in[c * 4 + 0] + a[3 + r] * in[c * 4 + 1] + a[6 + r] * in[c * 4 + 2];
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            /* (A M3) * A^T: column c of A^T is row c of A. */
            lin[c * 3 + r] = am[r] * a[c] + am[3 + r] * a[3 + c] + am[6 + r] * a[6 + c];
    double t[3];
    anim_fbx_convert_point(scene, in + 12, t);
    double res[16];
    for (int c = 0; c < 3; c++) {
        for (int r = 0; r < 3; r++)
            res[c * 4 + r] = lin[c * 3 + r];
        res[c * 4 + 3] = 0.0;
    }
    for (int r = 0; r < 3; r++)
        res[12 + r] = t[r];
    res[15] = 1.0;
    memcpy(out, res, sizeof res);
}

bool anim_fbx_axis_mirrors(const anim_fbx_scene *scene)
{
    const double *a = scene->axis;
    double det = a[0] * (a[4] * a[8] - a[7] * a[5]) - a[3] * (a[1] * a[8] - a[7] * a[2]) +
                 a[6] * (a[1] * a[5] - a[4] * a[2]);
    return det < 0.0;
}

int anim_fbx_scene_note(anim_fbx_scene *scene, anim_error *err, const char *fmt, ...)
{
    if (scene->note_count >= scene->note_capacity) {
        uint32_t cap = scene->note_count < 8u ? 16u : scene->note_count;
        if (cap > UINT32_MAX / 2u)
            return anim_error_set(err, ANIM_ERR_LIMIT, "too many scene notes");
        cap *= 2u;
        const char **grown = anim_arena_calloc(scene->arena, cap, sizeof *grown);
        if (!grown)
            return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory recording a scene note");
        if (scene->note_count)
            memcpy(grown, scene->notes, scene->note_count * sizeof *grown);
        scene->notes = grown;
        scene->note_capacity = cap;
    }
    char line[ANIM_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    const char *copy = anim_arena_strdup(scene->arena, line);
    if (!copy)
        return anim_error_set(err, ANIM_ERR_NOMEM, "out of memory recording a scene note");
    scene->notes[scene->note_count++] = copy;
    return 0;
}

uint32_t anim_fbx_node_of_object(const anim_fbx_scene *scene, uint32_t object)
{
    if (scene->node_of_object)
        return object < scene->node_of_object_count ? scene->node_of_object[object] : ANIM_NONE;
    for (uint32_t n = 1; n < scene->node_count; n++)
        if (scene->nodes[n].object == object)
            return n;
    return ANIM_NONE;
}
