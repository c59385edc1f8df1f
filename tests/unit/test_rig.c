/* Rig profiles and role resolution (docs/rig-profiles.md). Skeletons are
 * synthetic: only bone names and order matter to resolution. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "animsmith/rig.h"

#define MAX_BONES 64

typedef struct {
    anim_bone bones[MAX_BONES];
    anim_doc doc;
} skeleton;

/* Bones in the given order (the order of the names is the bone order). */
static const anim_doc *make_skeleton(skeleton *sk, const char *const *names,
                                     uint32_t n)
{
    memset(sk, 0, sizeof *sk);
    assert_true(n <= MAX_BONES);
    for (uint32_t i = 0; i < n; i++) {
        sk->bones[i].name = names[i];
        sk->bones[i].has_name = true;
        sk->bones[i].parent = i == 0 ? ANIM_NONE : 0;
        sk->bones[i].depth = i == 0 ? 0 : 1;
        sk->bones[i].node = i;
    }
    sk->doc.bones = sk->bones;
    sk->doc.bone_count = n;
    sk->doc.node_count = n;
    return &sk->doc;
}

#define SKEL(sk, ...)                                                         \
    make_skeleton((sk), (const char *const[]){__VA_ARGS__},                   \
                  (uint32_t)(sizeof((const char *const[]){__VA_ARGS__}) /     \
                             sizeof(const char *)))

static void resolve(const anim_doc *doc, const char *profile,
                    const char *const *inline_bones, anim_rig_resolution *res)
{
    anim_rig_config cfg = {profile, inline_bones};
    anim_error err;
    assert_int_equal(anim_rig_resolve(doc, &cfg, res, &err), 0);
}

static void assert_bound(const anim_rig_resolution *res, anim_role role,
                         uint32_t bone, const char *policy)
{
    assert_int_equal(res->state[role], ANIM_RIG_ROLE_BOUND);
    assert_int_equal(res->bone[role], bone);
    assert_string_equal(res->policy[role], policy);
}

static void assert_unbound(const anim_rig_resolution *res, anim_role role)
{
    assert_int_equal(res->bone[role], ANIM_NONE);
    assert_null(res->policy[role]);
}

static void test_role_names(void **state)
{
    (void)state;
    static const char *const want[] = {
        "root", "hips", "spine", "head", "left_foot", "right_foot",
        "left_toe", "right_toe", "left_hand", "right_hand",
    };
    for (int r = 0; r < ANIM_ROLE_COUNT; r++) {
        assert_string_equal(anim_role_name((anim_role)r), want[r]);
        assert_int_equal(anim_role_from_name(want[r]), r);
    }
    assert_null(anim_role_name(ANIM_ROLE_COUNT));
    assert_int_equal(anim_role_from_name("Hips"), -1);
    assert_int_equal(anim_role_from_name(NULL), -1);
}

static void test_profile_list(void **state)
{
    (void)state;
    static const char *const want[] = {"mixamo", "ue-mannequin", "humanoid",
                                       "ue5-manny", "blender"};
    assert_int_equal(anim_rig_profile_count(), 5);
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(anim_rig_profile_name(i), want[i]);
        assert_true(anim_rig_profile_known(want[i]));
    }
    assert_null(anim_rig_profile_name(5));
    assert_true(anim_rig_profile_known("auto"));
    assert_false(anim_rig_profile_known("Mixamo"));
    assert_false(anim_rig_profile_known("rigify"));
    assert_false(anim_rig_profile_known(NULL));
    assert_null(anim_rig_profile_bone(0, ANIM_ROLE_ROOT)); /* mixamo: — */
    assert_string_equal(anim_rig_profile_bone(2, ANIM_ROLE_HIPS),
                        "humanoid_ Pelvis");
}

static bool folded_equal(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        int x = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a;
        int y = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;
        if (x != y)
            return false;
    }
    return *a == *b;
}

static const char *local_name(const char *s)
{
    const char *c = strrchr(s, ':');
    return c ? c + 1 : s;
}

/* Within one table no two names may be equal after stripping and folding:
 * that is why built-in profiles can never produce a role collision. */
static void test_tables_distinct_after_folding(void **state)
{
    (void)state;
    for (size_t p = 0; p < anim_rig_profile_count(); p++)
        for (int a = 0; a < ANIM_ROLE_COUNT; a++)
            for (int b = a + 1; b < ANIM_ROLE_COUNT; b++) {
                const char *x = anim_rig_profile_bone(p, (anim_role)a);
                const char *y = anim_rig_profile_bone(p, (anim_role)b);
                if (x && y)
                    assert_false(folded_equal(local_name(x), local_name(y)));
            }
}

/* Every built-in profile resolves its own table exactly, on its own and,
 * except for marker-gated profiles, through auto. */
static void test_each_profile_on_its_own_names(void **state)
{
    (void)state;
    for (size_t p = 0; p < anim_rig_profile_count(); p++) {
        const char *names[ANIM_ROLE_COUNT];
        uint32_t n = 0, declared = 0;
        for (int r = 0; r < ANIM_ROLE_COUNT; r++)
            if (anim_rig_profile_bone(p, (anim_role)r))
                names[n++] = anim_rig_profile_bone(p, (anim_role)r);
        declared = n;
        skeleton sk;
        const anim_doc *doc = make_skeleton(&sk, names, n);
        anim_rig_resolution res;
        assert_int_equal(
            anim_rig_resolve_profile(doc, anim_rig_profile_name(p), &res, NULL), 0);
        assert_int_equal(res.resolved_count, declared);
        assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_RESOLVED);
        uint32_t k = 0;
        for (int r = 0; r < ANIM_ROLE_COUNT; r++)
            if (anim_rig_profile_bone(p, (anim_role)r))
                assert_bound(&res, (anim_role)r, k++, ANIM_RIG_POLICY_EXACT);
            else
                assert_unbound(&res, (anim_role)r);

        resolve(doc, anim_rig_profile_name(p), NULL, &res);
        assert_string_equal(res.label, anim_rig_profile_name(p));
        assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_RESOLVED);
    }
}

static void test_auto_picks_each_convention(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    /* The tutorial's Mixamo rig: 9 mixamo roles, outcome resolved. */
    resolve(SKEL(&sk, "mixamorig:Hips", "mixamorig:LeftFoot",
                 "mixamorig:LeftToeBase", "mixamorig:RightFoot",
                 "mixamorig:RightToeBase", "mixamorig:Spine", "mixamorig:Head",
                 "mixamorig:LeftHand", "mixamorig:RightHand"),
            NULL, NULL, &res);
    assert_string_equal(res.label, "mixamo");
    assert_int_equal(res.resolved_count, 9);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_RESOLVED);
    assert_bound(&res, ANIM_ROLE_LEFT_TOE, 2, ANIM_RIG_POLICY_EXACT);

    /* The example walk.glb: 3 of ue-mannequin's 10 roles -> coverage. */
    resolve(SKEL(&sk, "pelvis", "foot_l", "foot_r"), "auto", NULL, &res);
    assert_string_equal(res.label, "ue-mannequin");
    assert_int_equal(res.resolved_count, 3);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);
    assert_bound(&res, ANIM_ROLE_HIPS, 0, ANIM_RIG_POLICY_EXACT);

    resolve(SKEL(&sk, "root", "humanoid_ Pelvis", "humanoid_ L Foot"), NULL,
            NULL, &res);
    assert_string_equal(res.label, "humanoid");
    assert_int_equal(res.resolved_count, 3);

    /* Wizard.glb's layout. */
    resolve(SKEL(&sk, "CharacterArmature", "Root", "Body", "Hips", "Abdomen",
                 "Torso", "Neck", "Head", "UpperLeg.L", "LowerLeg.L", "Foot.L",
                 "UpperLeg.R", "LowerLeg.R", "Foot.R"),
            NULL, NULL, &res);
    assert_string_equal(res.label, "blender");
    assert_int_equal(res.resolved_count, 5);
    assert_bound(&res, ANIM_ROLE_LEFT_FOOT, 10, ANIM_RIG_POLICY_EXACT);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);
}

static void test_namespace_policy(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    resolve(SKEL(&sk, "ns:pelvis", "ns:foot_l", "a:b:foot_r"), NULL, NULL, &res);
    assert_string_equal(res.label, "ue-mannequin");
    assert_bound(&res, ANIM_ROLE_HIPS, 0, ANIM_RIG_POLICY_NAMESPACE);
    assert_bound(&res, ANIM_ROLE_LEFT_FOOT, 1, ANIM_RIG_POLICY_NAMESPACE);
    /* The last ':' ends the namespace. */
    assert_bound(&res, ANIM_ROLE_RIGHT_FOOT, 2, ANIM_RIG_POLICY_NAMESPACE);

    /* mixamorig1: strips against mixamo's own "mixamorig:" on both sides. */
    resolve(SKEL(&sk, "mixamorig1:Hips", "mixamorig1:Spine",
                 "mixamorig1:LeftFoot", "mixamorig:RightFoot"),
            NULL, NULL, &res);
    assert_string_equal(res.label, "mixamo");
    assert_int_equal(res.resolved_count, 4);
    assert_bound(&res, ANIM_ROLE_HIPS, 0, ANIM_RIG_POLICY_NAMESPACE);
    assert_bound(&res, ANIM_ROLE_RIGHT_FOOT, 3, ANIM_RIG_POLICY_EXACT);

    /* A bare name has no namespace to strip: "Hips" is not mixamo's. */
    assert_int_equal(anim_rig_resolve_profile(SKEL(&sk, "Hips", "Spine"),
                                              "mixamo", &res, NULL), 0);
    assert_int_equal(res.resolved_count, 0);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);

    /* A name ending in ':' strips to nothing and matches nothing. */
    resolve(SKEL(&sk, "pelvis:", "x"), "ue-mannequin", NULL, &res);
    assert_int_equal(res.resolved_count, 0);
}

static void test_folded_policy(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    resolve(SKEL(&sk, "Pelvis", "FOOT_L", "x:Foot_R"), NULL, NULL, &res);
    assert_string_equal(res.label, "ue-mannequin");
    assert_bound(&res, ANIM_ROLE_HIPS, 0, ANIM_RIG_POLICY_FOLDED);
    assert_bound(&res, ANIM_ROLE_LEFT_FOOT, 1, ANIM_RIG_POLICY_FOLDED);
    assert_bound(&res, ANIM_ROLE_RIGHT_FOOT, 2, ANIM_RIG_POLICY_FOLDED);

    resolve(SKEL(&sk, "MIXAMORIG:HIPS", "Mixamorig2:spine"), NULL, NULL, &res);
    assert_string_equal(res.label, "mixamo");
    assert_bound(&res, ANIM_ROLE_HIPS, 0, ANIM_RIG_POLICY_FOLDED);
    assert_bound(&res, ANIM_ROLE_SPINE, 1, ANIM_RIG_POLICY_FOLDED);

    /* Rigify-style lower-case sides reach the blender table by folding. */
    resolve(SKEL(&sk, "root", "foot.L", "foot.R", "hand.L"), NULL, NULL, &res);
    assert_string_equal(res.label, "blender");
    assert_bound(&res, ANIM_ROLE_LEFT_FOOT, 1, ANIM_RIG_POLICY_FOLDED);
    assert_bound(&res, ANIM_ROLE_ROOT, 0, ANIM_RIG_POLICY_FOLDED);

    /* Only ASCII folds: U+00C9 vs U+00E9 stay different. */
    resolve(SKEL(&sk, "\xc3\x89x", "pelvis"), "ue-mannequin", NULL, &res);
    assert_int_equal(res.resolved_count, 1);
}

/* Stages run over the whole skeleton: an exact match anywhere beats a
 * namespace or folded match earlier in bone order. */
static void test_stage_order(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    resolve(SKEL(&sk, "Pelvis", "ns:pelvis", "pelvis"), "ue-mannequin", NULL, &res);
    assert_bound(&res, ANIM_ROLE_HIPS, 2, ANIM_RIG_POLICY_EXACT);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);

    resolve(SKEL(&sk, "Pelvis", "ns:pelvis"), "ue-mannequin", NULL, &res);
    assert_bound(&res, ANIM_ROLE_HIPS, 1, ANIM_RIG_POLICY_NAMESPACE);

    /* A unique exact match wins even if folded duplicates exist. */
    resolve(SKEL(&sk, "PELVIS", "Pelvis", "pelvis"), "ue-mannequin", NULL, &res);
    assert_bound(&res, ANIM_ROLE_HIPS, 2, ANIM_RIG_POLICY_EXACT);
}

static void test_ambiguous_exact(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    /* Binding the first "pelvis" would be a guess; the role stays unbound. */
    resolve(SKEL(&sk, "pelvis", "pelvis", "foot_l", "foot_r"), NULL, NULL, &res);
    assert_string_equal(res.label, "ue-mannequin");
    assert_int_equal(res.resolved_count, 2);
    assert_unbound(&res, ANIM_ROLE_HIPS);
    assert_int_equal(res.state[ANIM_ROLE_HIPS], ANIM_RIG_ROLE_AMBIGUOUS_EXACT);
    assert_int_equal(res.ambiguous_bone[ANIM_ROLE_HIPS][0], 0);
    assert_int_equal(res.ambiguous_bone[ANIM_ROLE_HIPS][1], 1);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_AMBIGUOUS_EXACT);

    /* Two namespaces with the same local name: also exact ambiguity. */
    resolve(SKEL(&sk, "a:pelvis", "b:pelvis", "foot_l", "foot_r"), NULL, NULL,
            &res);
    assert_int_equal(res.state[ANIM_ROLE_HIPS], ANIM_RIG_ROLE_AMBIGUOUS_EXACT);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_AMBIGUOUS_EXACT);
}

/* A joint and a mesh node sharing a name: the skin joint is the bone. */
static void test_shared_name_prefers_the_skin_joint(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    const anim_doc *doc = SKEL(&sk, "pelvis", "foot_l", "foot_l", "foot_r");
    uint32_t joints[] = {0, 2, 3};
    anim_skin skin = {.name = NULL, .joints = joints, .joint_count = 3};
    sk.doc.skins = &skin;
    sk.doc.skin_count = 1;
    resolve(doc, NULL, NULL, &res);
    assert_bound(&res, ANIM_ROLE_LEFT_FOOT, 2, ANIM_RIG_POLICY_EXACT);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);

    /* Both carriers are joints: still ambiguous. */
    uint32_t all[] = {0, 1, 2, 3};
    skin.joints = all;
    skin.joint_count = 4;
    resolve(doc, NULL, NULL, &res);
    assert_unbound(&res, ANIM_ROLE_LEFT_FOOT);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_AMBIGUOUS_EXACT);
}

static void test_ambiguous_folded(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    resolve(SKEL(&sk, "Pelvis", "PELVIS", "foot_l", "foot_r"), NULL, NULL, &res);
    assert_string_equal(res.label, "ue-mannequin");
    assert_unbound(&res, ANIM_ROLE_HIPS);
    assert_int_equal(res.state[ANIM_ROLE_HIPS], ANIM_RIG_ROLE_AMBIGUOUS_FOLDED);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_AMBIGUOUS_FOLDED);

    /* Exact ambiguity outranks folded ambiguity in the single outcome. */
    resolve(SKEL(&sk, "Pelvis", "PELVIS", "foot_l", "foot_l", "foot_r"),
            "ue-mannequin", NULL, &res);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_AMBIGUOUS_EXACT);
}

static void test_role_collision(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    const char *roles[ANIM_ROLE_COUNT] = {NULL};
    roles[ANIM_ROLE_LEFT_FOOT] = "foot";
    roles[ANIM_ROLE_RIGHT_FOOT] = "foot";
    roles[ANIM_ROLE_HIPS] = "hips";
    resolve(SKEL(&sk, "hips", "foot"), NULL, roles, &res);
    assert_string_equal(res.label, "custom");
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_ROLE_COLLISION);
    assert_int_equal(res.resolved_count, 1);
    assert_bound(&res, ANIM_ROLE_HIPS, 0, ANIM_RIG_POLICY_EXPLICIT);
    assert_unbound(&res, ANIM_ROLE_LEFT_FOOT);
    assert_unbound(&res, ANIM_ROLE_RIGHT_FOOT);
    assert_int_equal(res.state[ANIM_ROLE_LEFT_FOOT], ANIM_RIG_ROLE_COLLISION);
    assert_int_equal(res.ambiguous_bone[ANIM_ROLE_RIGHT_FOOT][0], 1);

    /* An inline role onto a bone the base already bound. */
    const char *spine[ANIM_ROLE_COUNT] = {NULL};
    spine[ANIM_ROLE_SPINE] = "pelvis";
    resolve(SKEL(&sk, "pelvis", "foot_l", "foot_r"), NULL, spine, &res);
    assert_string_equal(res.label, "ue-mannequin+custom");
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_ROLE_COLLISION);
    assert_int_equal(res.state[ANIM_ROLE_HIPS], ANIM_RIG_ROLE_COLLISION);
    assert_int_equal(res.state[ANIM_ROLE_SPINE], ANIM_RIG_ROLE_COLLISION);
    assert_int_equal(res.resolved_count, 2);
}

static void test_auto_two_role_rule(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    /* One role is not a detection... */
    resolve(SKEL(&sk, "root", "spine", "chest"), NULL, NULL, &res);
    assert_int_equal(res.resolved_count, 0);
    assert_string_equal(res.label, "unknown");
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);
    assert_null(res.base_profile);
    /* ...but a named profile keeps a single role. */
    resolve(SKEL(&sk, "root", "spine", "chest"), "ue-mannequin", NULL, &res);
    assert_int_equal(res.resolved_count, 1);
    assert_string_equal(res.label, "ue-mannequin");
    assert_bound(&res, ANIM_ROLE_ROOT, 0, ANIM_RIG_POLICY_EXACT);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);
    /* Two roles are enough. */
    resolve(SKEL(&sk, "root", "head"), NULL, NULL, &res);
    assert_string_equal(res.label, "ue-mannequin");
    assert_int_equal(res.resolved_count, 2);
}

static void test_auto_ties(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    /* Two profiles, two roles each, different bones: nothing is bound. */
    resolve(SKEL(&sk, "mixamorig:Hips", "mixamorig:Spine", "pelvis", "spine_01"),
            NULL, NULL, &res);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_AMBIGUOUS_PROFILE);
    assert_int_equal(res.resolved_count, 0);
    assert_string_equal(res.label, "unknown");
    assert_int_equal(res.tied_count, 2);
    assert_string_equal(res.tied_profiles[0], "mixamo");
    assert_string_equal(res.tied_profiles[1], "ue-mannequin");
    for (int r = 0; r < ANIM_ROLE_COUNT; r++)
        assert_unbound(&res, (anim_role)r);

    /* A clear winner is not a tie. */
    resolve(SKEL(&sk, "mixamorig:Hips", "mixamorig:Spine", "mixamorig:LeftHand",
                 "pelvis", "spine_01"),
            NULL, NULL, &res);
    assert_string_equal(res.label, "mixamo");
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);

    /* Inline roles still apply after an ambiguous detection. */
    const char *roles[ANIM_ROLE_COUNT] = {NULL};
    roles[ANIM_ROLE_HIPS] = "pelvis";
    resolve(SKEL(&sk, "mixamorig:Hips", "mixamorig:Spine", "pelvis", "spine_01"),
            NULL, roles, &res);
    assert_string_equal(res.label, "custom");
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_AMBIGUOUS_PROFILE);
    assert_bound(&res, ANIM_ROLE_HIPS, 2, ANIM_RIG_POLICY_EXPLICIT);
}

static void test_ue4_vs_ue5(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    const anim_doc *ue4 = SKEL(&sk, "root", "pelvis", "spine_01", "spine_02",
                               "spine_03", "neck_01", "head", "hand_l",
                               "hand_r", "thigh_l", "foot_l", "ball_l",
                               "thigh_r", "foot_r", "ball_r");
    resolve(ue4, NULL, NULL, &res);
    assert_string_equal(res.label, "ue-mannequin");
    assert_int_equal(res.resolved_count, 10);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_RESOLVED);
    /* Named explicitly, ue5-manny needs no marker. */
    resolve(ue4, "ue5-manny", NULL, &res);
    assert_string_equal(res.label, "ue5-manny");
    assert_int_equal(res.resolved_count, 10);

    static const char *const markers[] = {"spine_04", "spine_05", "neck_02",
                                          "x:Spine_05"};
    for (size_t m = 0; m < 4; m++) {
        resolve(SKEL(&sk, "root", "pelvis", "spine_01", "spine_02", "spine_03",
                     markers[m], "head", "foot_l", "foot_r"),
                NULL, NULL, &res);
        assert_string_equal(res.label, "ue5-manny");
        assert_int_equal(res.resolved_count, 6);
        assert_bound(&res, ANIM_ROLE_HEAD, 6, ANIM_RIG_POLICY_EXACT);
    }
}

static void test_blender_markers(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    /* Generic names fold onto the blender table, but without a .L/.R bone
     * auto does not take it (the example clip.glb prints none detected). */
    resolve(SKEL(&sk, "root", "spine", "chest"), "blender", NULL, &res);
    assert_int_equal(res.resolved_count, 2);
    resolve(SKEL(&sk, "root", "spine", "chest"), NULL, NULL, &res);
    assert_int_equal(res.resolved_count, 0);
    resolve(SKEL(&sk, "Root", "Hips", "Spine", "Head"), NULL, NULL, &res);
    assert_string_equal(res.label, "ue-mannequin"); /* root, head folded */
    assert_int_equal(res.resolved_count, 2);
    resolve(SKEL(&sk, "Root", "Hips", "Spine", "Head"), "blender", NULL, &res);
    assert_int_equal(res.resolved_count, 4);
    resolve(SKEL(&sk, "Root", "Hips", "Spine", "Head", "Toe.R"), NULL, NULL, &res);
    assert_string_equal(res.label, "blender");
    assert_int_equal(res.resolved_count, 5);
    assert_bound(&res, ANIM_ROLE_RIGHT_TOE, 4, ANIM_RIG_POLICY_EXACT);
}

static void test_inline_roles_and_labels(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    const char *roles[ANIM_ROLE_COUNT] = {NULL};

    /* unknown: neither contributed (absent inline names are ignored). */
    roles[ANIM_ROLE_HIPS] = "Hips";
    resolve(SKEL(&sk, "a", "b"), NULL, roles, &res);
    assert_string_equal(res.label, "unknown");
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);
    assert_int_equal(res.resolved_count, 0);

    /* custom: inline only; exact names only. */
    roles[ANIM_ROLE_HIPS] = "b";
    roles[ANIM_ROLE_HEAD] = "A"; /* case differs: ignored */
    resolve(SKEL(&sk, "a", "b"), NULL, roles, &res);
    assert_string_equal(res.label, "custom");
    assert_int_equal(res.resolved_count, 1);
    assert_bound(&res, ANIM_ROLE_HIPS, 1, ANIM_RIG_POLICY_EXPLICIT);
    assert_unbound(&res, ANIM_ROLE_HEAD);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);
    roles[ANIM_ROLE_HEAD] = NULL;
    resolve(SKEL(&sk, "a", "b"), NULL, roles, &res);
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_RESOLVED);

    /* <base>: base only, inline name absent. */
    const char *none[ANIM_ROLE_COUNT] = {NULL};
    none[ANIM_ROLE_SPINE] = "chest";
    resolve(SKEL(&sk, "pelvis", "foot_l", "foot_r"), NULL, none, &res);
    assert_string_equal(res.label, "ue-mannequin");

    /* <base>+custom: inline overrides the base for its role. */
    const char *over[ANIM_ROLE_COUNT] = {NULL};
    over[ANIM_ROLE_HIPS] = "hip_bone";
    resolve(SKEL(&sk, "pelvis", "foot_l", "foot_r", "hip_bone"), "auto", over,
            &res);
    assert_string_equal(res.label, "ue-mannequin+custom");
    assert_bound(&res, ANIM_ROLE_HIPS, 3, ANIM_RIG_POLICY_EXPLICIT);
    assert_bound(&res, ANIM_ROLE_LEFT_FOOT, 1, ANIM_RIG_POLICY_EXACT);
    assert_int_equal(res.resolved_count, 3);

    /* An inline name on two bones is ambiguous, not first-wins. */
    const char *dup[ANIM_ROLE_COUNT] = {NULL};
    dup[ANIM_ROLE_HEAD] = "Head";
    resolve(SKEL(&sk, "Head", "Head", "x"), NULL, dup, &res);
    assert_string_equal(res.label, "custom");
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_AMBIGUOUS_EXACT);
    assert_unbound(&res, ANIM_ROLE_HEAD);
}

static void test_unknown_profile(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    const anim_doc *doc = SKEL(&sk, "pelvis", "foot_l", "foot_r");
    resolve(doc, "unreal", NULL, &res);
    assert_true(res.profile_unknown);
    assert_int_equal(res.resolved_count, 0);
    assert_string_equal(res.label, "unknown");
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_COVERAGE);

    const char *roles[ANIM_ROLE_COUNT] = {NULL};
    roles[ANIM_ROLE_HIPS] = "pelvis";
    resolve(doc, "unreal", roles, &res);
    assert_string_equal(res.label, "custom");
    assert_string_equal(res.outcome, ANIM_RIG_OUTCOME_RESOLVED);

    resolve(doc, "mixamo", NULL, &res);
    assert_false(res.profile_unknown);
    assert_int_equal(anim_rig_resolve_profile(doc, "unreal", &res, NULL), -1);
    anim_error err;
    assert_int_equal(anim_rig_resolve(NULL, NULL, &res, &err), -1);
    assert_int_equal(err.code, ANIM_ERR_USAGE);
    /* NULL config = auto without inline roles. */
    assert_int_equal(anim_rig_resolve(doc, NULL, &res, NULL), 0);
    assert_string_equal(res.label, "ue-mannequin");
}

static void assert_format(const anim_doc *doc, const anim_rig_resolution *res,
                          const char *want)
{
    anim_strbuf sb = ANIM_STRBUF_INIT;
    anim_rig_format_inspect(doc, res, &sb);
    assert_false(sb.failed);
    assert_string_equal(sb.data, want);
    anim_strbuf_free(&sb);
}

static void test_format_inspect(void **state)
{
    (void)state;
    skeleton sk;
    anim_rig_resolution res;
    /* The tutorial's inspect transcript, byte for byte. */
    const anim_doc *doc =
        SKEL(&sk, "mixamorig:Hips", "mixamorig:LeftFoot", "mixamorig:LeftToeBase",
             "mixamorig:RightFoot", "mixamorig:RightToeBase", "mixamorig:Spine",
             "mixamorig:Head", "mixamorig:LeftHand", "mixamorig:RightHand");
    resolve(doc, NULL, NULL, &res);
    assert_format(doc, &res,
                  "rig profile: mixamo (9 roles)\n"
                  "  hips         -> mixamorig:Hips (exact)\n"
                  "  spine        -> mixamorig:Spine (exact)\n"
                  "  head         -> mixamorig:Head (exact)\n"
                  "  left_foot    -> mixamorig:LeftFoot (exact)\n"
                  "  right_foot   -> mixamorig:RightFoot (exact)\n"
                  "  left_toe     -> mixamorig:LeftToeBase (exact)\n"
                  "  right_toe    -> mixamorig:RightToeBase (exact)\n"
                  "  left_hand    -> mixamorig:LeftHand (exact)\n"
                  "  right_hand   -> mixamorig:RightHand (exact)\n");

    doc = SKEL(&sk, "root", "spine", "chest");
    resolve(doc, NULL, NULL, &res);
    assert_format(doc, &res, "rig profile: none detected\n");

    /* Asset names cannot inject terminal controls. */
    const char *roles[ANIM_ROLE_COUNT] = {NULL};
    roles[ANIM_ROLE_HEAD] = "he\x1b[2Jad\n";
    doc = SKEL(&sk, "he\x1b[2Jad\n", "Foot.L", "Foot.L", "ns:foot_r");
    resolve(doc, "blender", roles, &res);
    assert_format(doc, &res,
                  "rig profile: custom (1 roles)\n"
                  "  head         -> he\\u{1b}[2Jad\\n (explicit)\n"
                  "rig resolution: ambiguous_exact_match\n"
                  "  left_foot    ambiguous: Foot.L (bone 1), Foot.L (bone 2)\n");

    doc = SKEL(&sk, "mixamorig:Hips", "mixamorig:Spine", "pelvis", "spine_01");
    resolve(doc, NULL, NULL, &res);
    assert_format(doc, &res,
                  "rig profile: none detected\n"
                  "rig resolution: ambiguous_profile (tied: mixamo, ue-mannequin)\n");

    roles[ANIM_ROLE_HEAD] = NULL;
    roles[ANIM_ROLE_LEFT_HAND] = "hand";
    roles[ANIM_ROLE_RIGHT_HAND] = "hand";
    doc = SKEL(&sk, "hand");
    resolve(doc, NULL, roles, &res);
    assert_format(doc, &res,
                  "rig profile: none detected\n"
                  "rig resolution: role_collision\n"
                  "  left_hand    shares: hand (bone 0)\n"
                  "  right_hand   shares: hand (bone 0)\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_role_names),
        cmocka_unit_test(test_profile_list),
        cmocka_unit_test(test_tables_distinct_after_folding),
        cmocka_unit_test(test_each_profile_on_its_own_names),
        cmocka_unit_test(test_auto_picks_each_convention),
        cmocka_unit_test(test_namespace_policy),
        cmocka_unit_test(test_folded_policy),
        cmocka_unit_test(test_stage_order),
        cmocka_unit_test(test_ambiguous_exact),
        cmocka_unit_test(test_shared_name_prefers_the_skin_joint),
        cmocka_unit_test(test_ambiguous_folded),
        cmocka_unit_test(test_role_collision),
        cmocka_unit_test(test_auto_two_role_rule),
        cmocka_unit_test(test_auto_ties),
        cmocka_unit_test(test_ue4_vs_ue5),
        cmocka_unit_test(test_blender_markers),
        cmocka_unit_test(test_inline_roles_and_labels),
        cmocka_unit_test(test_unknown_profile),
        cmocka_unit_test(test_format_inspect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
