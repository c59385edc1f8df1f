/* The built-in rig profile tables (docs/rig-profiles.md prints them).
 *
 * Declaration order matters: auto breaks ties between profiles with the
 * same bindings in favour of the later one (the last-maximum rule),
 * which is also what lets ue5-manny win over ue-mannequin when its marker
 * bones are present. New profiles go at the end so the first three keep
 * their documented order. */
#include <string.h>

#include "animsmith/rig.h"
#include "rig/profiles.h"

static const char *const role_names[ANIM_ROLE_COUNT] = {
    "root", "hips", "spine", "head", "left_foot", "right_foot",
    "left_toe", "right_toe", "left_hand", "right_hand",
};

/* Markers keep ue5-manny out of auto unless a bone only UE5's skeleton has
 * is present: its role table equals ue-mannequin's, so without them every
 * UE4 skeleton would be labelled UE5. */
static const char *const ue5_markers[] = {"spine_04", "spine_05", "neck_02", NULL};

/* The blender table's Root, Spine, Head and Hips fold onto generic names
 * ("root", "spine") that the bundled examples must keep unresolved (clip.glb
 * with root/spine/chest prints "rig profile: none detected"), so auto only
 * takes it when a side-suffixed bone of the convention is present. */
static const char *const blender_markers[] = {
    "Foot.L", "Foot.R", "Toe.L", "Toe.R", "Hand.L", "Hand.R", NULL,
};

static const rig_profile profiles[] = {
    {"mixamo",
     {NULL, "mixamorig:Hips", "mixamorig:Spine", "mixamorig:Head",
      "mixamorig:LeftFoot", "mixamorig:RightFoot", "mixamorig:LeftToeBase",
      "mixamorig:RightToeBase", "mixamorig:LeftHand", "mixamorig:RightHand"},
     NULL},
    {"ue-mannequin",
     {"root", "pelvis", "spine_01", "head", "foot_l", "foot_r", "ball_l",
      "ball_r", "hand_l", "hand_r"},
     NULL},
    /* The space after the underscore is part of the names. */
    {"humanoid",
     {"root", "humanoid_ Pelvis", "humanoid_ Spine", "humanoid_ Head",
      "humanoid_ L Foot", "humanoid_ R Foot", "humanoid_ L Toe0",
      "humanoid_ R Toe0", "humanoid_ L Hand", "humanoid_ R Hand"},
     NULL},
    {"ue5-manny",
     {"root", "pelvis", "spine_01", "head", "foot_l", "foot_r", "ball_l",
      "ball_r", "hand_l", "hand_r"},
     ue5_markers},
    /* Blender's .L/.R armature convention as Quaternius, Kenney and many
     * Blender-made characters ship it (Wizard.glb, girl.glb). Rigify's
     * lower-case deform names (foot.L, toe.L, hand.L) reach it through the
     * case-folded stage. */
    {"blender",
     {"Root", "Hips", "Spine", "Head", "Foot.L", "Foot.R", "Toe.L", "Toe.R",
      "Hand.L", "Hand.R"},
     blender_markers},
};

#define PROFILE_COUNT (sizeof profiles / sizeof profiles[0])

const char *anim_role_name(anim_role role)
{
    if ((int)role < 0 || role >= ANIM_ROLE_COUNT)
        return NULL;
    return role_names[role];
}

int anim_role_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        if (strcmp(role_names[r], name) == 0)
            return r;
    return -1;
}

size_t anim_rig_profile_count(void)
{
    return PROFILE_COUNT;
}

const char *anim_rig_profile_name(size_t index)
{
    return index < PROFILE_COUNT ? profiles[index].name : NULL;
}

const char *anim_rig_profile_bone(size_t index, anim_role role)
{
    if (index >= PROFILE_COUNT || (int)role < 0 || role >= ANIM_ROLE_COUNT)
        return NULL;
    return profiles[index].bones[role];
}

const rig_profile *rig_profile_at(size_t index)
{
    return index < PROFILE_COUNT ? &profiles[index] : NULL;
}

const rig_profile *rig_profile_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < PROFILE_COUNT; i++)
        if (strcmp(profiles[i].name, name) == 0)
            return &profiles[i];
    return NULL;
}

bool anim_rig_profile_known(const char *name)
{
    return name && (strcmp(name, "auto") == 0 || rig_profile_find(name));
}
