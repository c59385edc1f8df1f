/* Skeleton edits: the skeleton replacement that keeps joint identities by
 * name (weights, locks, clip channels, pose rows and constraints follow
 * their joint to its new ordinal), rig_rest, rig_rename, rig_parent,
 * rig_roll and clip_options (with clip replacement keeping options), run
 * one at a time through the generic validation and the
 * operation's run function, as the batch driver calls them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "animsmith/json.h"
#include "animsmith/math.h"
#include "animsmith/model.h"
#include "animsmith/strbuf.h"
#include "model/mdl_doc.h"
#include "model/mdl_inspect.h"
#include "model/mdl_ops.h"
#include "support/model_op_fixture.h"

static const char *const SKELETON3 =
    "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]},"
    "{\"name\":\"a\",\"parent\":0,\"translation\":[0,1,0]},"
    "{\"name\":\"b\",\"parent\":1,\"translation\":[0,1,0]}]}";

static mdl_object *box(fx *f)
{
    fx_ok(f, "{\"op\":\"cube\",\"object\":\"box\",\"size\":[1,1,1]}");
    return f->doc->objects[mdl_doc_find_object(f->doc, "box")];
}

static void add_pose(fx *f, uint32_t j0, uint32_t j1)
{
    mdl_pose *p = mdl_pose_new("p", 2);
    assert_non_null(p);
    mdl_trs_identity(&p->joints[0].local);
    mdl_trs_identity(&p->joints[1].local);
    p->joints[0].joint = j0;
    p->joints[1].joint = j1;
    p->joints[1].local.translation[0] = 7;
    assert_int_equal(mdl_doc_put_pose(f->doc, p), 0);
}

static void add_constraint(fx *f, mdl_constraint_type type, uint32_t joint, uint32_t target)
{
    mdl_constraint c;
    memset(&c, 0, sizeof c);
    strcpy(c.name, "c");
    c.type = type;
    c.enabled = true;
    c.joint = joint;
    c.target = target;
    assert_int_equal(mdl_doc_put_constraint(f->doc, &c), 0);
}

static void lock(mdl_object *o, uint32_t j)
{
    o->locks = malloc(sizeof *o->locks);
    assert_non_null(o->locks);
    o->locks[0] = j;
    o->lock_count = 1;
}

/* Reordering and inserting joints moves every reference to the ordinal its
 * joint's name now has. */
static void test_skeleton_keeps_identities(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    mdl_object *o = box(f);
    fx_ok(f, "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"1\",\"weights\":"
          "[{\"joint\":1,\"weight\":0.25},{\"joint\":2,\"weight\":0.75}]}");
    lock(o, 2);
    fx_ok(f, "{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":1,\"path\":\"translation\","
          "\"keys\":[{\"time\":0,\"value\":[0,1,0,0]}]}]}");
    add_pose(f, 1, 2);
    add_constraint(f, MDL_CONSTRAINT_COPY, 2, 1);
    /* New order: root, b, x, a (b moves 2 -> 1, a moves 1 -> 3). */
    fx_ok(f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]},"
          "{\"name\":\"b\",\"parent\":0,\"translation\":[0,2,0]},"
          "{\"name\":\"x\",\"parent\":0,\"translation\":[1,0,0]},"
          "{\"name\":\"a\",\"parent\":0,\"translation\":[0,1,0]}]}");
    assert_int_equal(f->doc->joint_count, 4);
    o = f->doc->objects[mdl_doc_find_object(f->doc, "box")];
    size_t first, n = mdl_object_vertex_weights(o, 1, &first);
    assert_int_equal(n, 2);
    assert_int_equal(o->weights[first].joint, 1); /* b, sorted first now */
    fx_near(o->weights[first].weight, 0.75, 0);
    assert_int_equal(o->weights[first + 1].joint, 3); /* a */
    fx_near(o->weights[first + 1].weight, 0.25, 0);
    assert_int_equal(o->lock_count, 1);
    assert_int_equal(o->locks[0], 1);
    const mdl_clip *c = f->doc->clips[mdl_doc_find_clip(f->doc, "walk")];
    assert_int_equal(c->channels[0].joint, 3);
    const mdl_pose *p = f->doc->poses[mdl_doc_find_pose(f->doc, "p")];
    assert_int_equal(p->joints[0].joint, 1); /* b's row (translation 7) now sorts first */
    fx_near(p->joints[0].local.translation[0], 7, 0);
    assert_int_equal(p->joints[1].joint, 3);
    const mdl_constraint *k = &f->doc->constraints[mdl_doc_find_constraint(f->doc, "c")];
    assert_int_equal(k->joint, 1);
    assert_int_equal(k->target, 3);
}

static void test_skeleton_refuses_lost_weight(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    box(f);
    fx_ok(f, "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"3\",\"weights\":"
          "[{\"joint\":2,\"weight\":1}]}");
    fx_refused(f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]},"
               "{\"name\":\"a\",\"parent\":0,\"translation\":[0,1,0]},"
               "{\"name\":\"c\",\"parent\":1,\"translation\":[0,1,0]}]}",
            "invalid_skeleton", "vertex \"3\" of object \"box\" is weighted to joint 2 (\"b\")");
    assert_string_equal(f->doc->joints[2].name, "b");
}

static const char *const DROP_B =
    "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]},"
    "{\"name\":\"a\",\"parent\":0,\"translation\":[0,1,0]}]}";

static void test_skeleton_refuses_lost_references(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    fx_ok(f, "{\"op\":\"clip\",\"name\":\"idle\",\"channels\":[{\"joint\":2,\"path\":\"scale\","
          "\"keys\":[{\"time\":0,\"value\":[1,1,1,0]}]}]}");
    fx_refused(f, DROP_B, "invalid_skeleton", "clip \"idle\" channel 0 animates joint 2 (\"b\")");
    fx_ok(f, "{\"op\":\"delete_clip\",\"name\":\"idle\"}");
    add_pose(f, 0, 2);
    fx_refused(f, DROP_B, "invalid_skeleton", "pose \"p\" row 1 sets joint 2 (\"b\")");
    assert_int_equal(mdl_doc_delete_pose(f->doc, "p"), 0);
    add_constraint(f, MDL_CONSTRAINT_AIM, 1, 2);
    fx_refused(f, DROP_B, "invalid_skeleton", "constraint \"c\" target is joint 2 (\"b\")");
    assert_int_equal(mdl_doc_delete_constraint(f->doc, "c"), 0);
    lock(box(f), 2);
    fx_refused(f, DROP_B, "invalid_skeleton", "object \"box\" locks the weights of joint 2 (\"b\")");
    free(f->doc->objects[0]->locks);
    f->doc->objects[0]->locks = NULL;
    f->doc->objects[0]->lock_count = 0;
    fx_ok(f, DROP_B);
    assert_int_equal(f->doc->joint_count, 2);
    /* The existing refusals stay. */
    fx_refused(f, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"r\",\"translation\":[0,0,0]},"
               "{\"name\":\"r\",\"parent\":0,\"translation\":[0,1,0]}]}",
            "invalid_skeleton", "already joint 0");
}

static void test_rig_rest(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    fx_ok(f, "{\"op\":\"rig_rest\",\"joint\":1,\"transform\":{\"translation\":[1,2,3],"
          "\"rotation\":[0,0.6,0,0.8],\"scale\":[2,2,-1]}}");
    const mdl_joint *j = &f->doc->joints[1];
    fx_near(j->translation[2], 3, 0);
    fx_near(j->rotation[1], 0.6, 0);
    fx_near(j->rotation[3], 0.8, 0);
    fx_near(j->scale[2], -1, 0);
    /* Omitted parts take their defaults: the rest is replaced whole. */
    fx_ok(f, "{\"op\":\"rig_rest\",\"joint\":1,\"transform\":{\"scale\":[3,3,3]}}");
    fx_near(j->translation[0], 0, 0);
    fx_near(j->translation[2], 0, 0);
    fx_near(j->rotation[1], 0, 0);
    fx_near(j->rotation[3], 1, 0);
    fx_near(j->scale[0], 3, 0);
    fx_refused(f, "{\"op\":\"rig_rest\",\"joint\":1,\"transform\":{\"rotation\":[0,0,0,2]}}",
            "invalid_transform", "transform.rotation");
    fx_refused(f, "{\"op\":\"rig_rest\",\"joint\":1,\"transform\":{\"scale\":[1,0,1]}}",
            "invalid_transform", "transform.scale[1]");
    fx_refused(f, "{\"op\":\"rig_rest\",\"joint\":3,\"transform\":{}}", "unknown_joint", "joint 3");
    fx_refused(f, "{\"op\":\"rig_rest\",\"joint\":1,\"transform\":{\"skew\":1}}", "unknown_field",
            "transform.skew");
    fx_refused(f, "{\"op\":\"rig_rest\",\"joint\":1,\"transform\":[1]}", "wrong_type", NULL);
    fx_near(j->scale[0], 3, 0);
}

static void test_rig_rename(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    fx_ok(f, "{\"op\":\"rig_rename\",\"joint\":2,\"name\":\"hand\"}");
    assert_string_equal(f->doc->joints[2].name, "hand");
    fx_ok(f, "{\"op\":\"rig_rename\",\"joint\":2,\"name\":\"hand\"}");
    fx_refused(f, "{\"op\":\"rig_rename\",\"joint\":2,\"name\":\"a\"}", "invalid_skeleton",
            "already the name of joint 1");
    fx_refused(f, "{\"op\":\"rig_rename\",\"joint\":9,\"name\":\"z\"}", "unknown_joint", NULL);
    fx_refused(f, "{\"op\":\"rig_rename\",\"joint\":1,\"name\":\"\"}", "invalid_name", NULL);
    assert_string_equal(f->doc->joints[2].name, "hand");
}

static void test_rig_parent(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    fx_ok(f, "{\"op\":\"rig_parent\",\"joint\":2,\"parent\":0}");
    assert_int_equal(f->doc->joints[2].parent, 0);
    fx_near(f->doc->joints[2].translation[1], 1, 0); /* local rest unchanged */
    fx_ok(f, "{\"op\":\"rig_parent\",\"joint\":0,\"parent\":null}");
    assert_int_equal(f->doc->joints[0].parent, MDL_NO_PARENT);
    fx_refused(f, "{\"op\":\"rig_parent\",\"joint\":2,\"parent\":null}", "invalid_skeleton",
            "second root");
    fx_refused(f, "{\"op\":\"rig_parent\",\"joint\":1,\"parent\":2}", "invalid_skeleton",
            "does not precede joint 1");
    fx_refused(f, "{\"op\":\"rig_parent\",\"joint\":1,\"parent\":1}", "invalid_skeleton", NULL);
    fx_refused(f, "{\"op\":\"rig_parent\",\"joint\":0,\"parent\":1}", "invalid_skeleton",
            "is the root");
    fx_refused(f, "{\"op\":\"rig_parent\",\"joint\":5,\"parent\":0}", "unknown_joint", NULL);
    fx_refused(f, "{\"op\":\"rig_parent\",\"joint\":1}", "missing_field", NULL);
    assert_int_equal(f->doc->joints[1].parent, 0);
}

static void test_rig_roll(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    fx_ok(f, "{\"op\":\"rig_roll\",\"joint\":1,\"angle\":1.5707963267948966}");
    const double *q = f->doc->joints[1].rotation;
    double h = sqrt(0.5);
    fx_near(q[0], 0, 1e-15);
    fx_near(q[1], h, 1e-15);
    fx_near(q[2], 0, 1e-15);
    fx_near(q[3], h, 1e-15);
    /* About the local Y: after a rest turn of pi/2 about X, local Y is
     * world Z, so the roll composes on the right (rest * roll). */
    fx_ok(f, "{\"op\":\"rig_rest\",\"joint\":2,\"transform\":{\"rotation\":"
          "[0.7071067811865476,0,0,0.7071067811865476]}}");
    fx_ok(f, "{\"op\":\"rig_roll\",\"joint\":2,\"angle\":1.5707963267948966}");
    q = f->doc->joints[2].rotation;
    fx_near(q[0], 0.5, 1e-12);
    fx_near(q[1], 0.5, 1e-12);
    fx_near(q[2], 0.5, 1e-12);
    fx_near(q[3], 0.5, 1e-12);
    anim_vec3 x = anim_quat_rotate(anim_quat_from_array(q), anim_vec3_make(1, 0, 0));
    /* The roll takes X to -Z, the rest's turn about X takes -Z to +Y. */
    fx_near(x.x, 0, 1e-12);
    fx_near(x.y, 1, 1e-12);
    fx_near(x.z, 0, 1e-12);
    fx_refused(f, "{\"op\":\"rig_roll\",\"joint\":3,\"angle\":1}", "unknown_joint", NULL);
    fx_refused(f, "{\"op\":\"rig_roll\",\"joint\":1,\"angle\":\"a\"}", "wrong_type", NULL);
}

/* ---- clip_options */

static const char *const WALK2 =
    "{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":1,\"path\":\"translation\","
    "\"keys\":[{\"time\":0,\"value\":[0,1,0,0]},{\"time\":2,\"value\":[0,2,0,0]}]}]}";

static const mdl_clip *clip(fx *f, const char *name)
{
    ptrdiff_t i = mdl_doc_find_clip(f->doc, name);
    assert_true(i >= 0);
    return f->doc->clips[i];
}

static void add_morph(fx *f, const char *name)
{
    mdl_morph *m = mdl_morph_new(name, "box", 0);
    assert_non_null(m);
    assert_int_equal(mdl_doc_put_morph(f->doc, m), 0);
}

static void test_clip_options(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    fx_ok(f, WALK2);
    add_morph(f, "blink");
    add_morph(f, "smile");
    fx_ok(f, "{\"op\":\"clip_options\",\"name\":\"walk\"}");
    const mdl_clip *c = clip(f, "walk");
    assert_true(c->has_options);
    assert_int_equal(c->interpolation, MDL_INTERP_LINEAR);
    assert_false(c->root_motion);
    assert_int_equal(c->event_count, 0);
    assert_int_equal(c->morph_track_count, 0);
    fx_ok(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"interpolation\":\"cubic\","
          "\"root_motion\":true,\"events\":[{\"time\":0.5,\"name\":\"step_l\",\"payload\":"
          "\"{\\\"foot\\\":\\\"l\\\"}\"},{\"time\":0.5,\"name\":\"dust\"},"
          "{\"time\":2,\"name\":\"step_r\"}],\"morph_keys\":[{\"morph\":\"smile\",\"keys\":"
          "[{\"time\":0,\"weight\":0},{\"time\":2,\"weight\":-2}]},{\"morph\":\"blink\","
          "\"keys\":[{\"time\":1,\"weight\":1}]}]}");
    c = clip(f, "walk");
    assert_int_equal(c->interpolation, MDL_INTERP_CUBIC);
    assert_true(c->root_motion);
    assert_int_equal(c->event_count, 3);
    assert_string_equal(c->events[0].name, "step_l"); /* ties keep their order */
    assert_string_equal(c->events[0].payload, "{\"foot\":\"l\"}");
    assert_int_equal(c->events[0].payload_len, 12);
    assert_string_equal(c->events[1].name, "dust");
    assert_int_equal(c->events[1].payload_len, 0);
    fx_near(c->events[2].time, 2, 0);
    assert_int_equal(c->morph_track_count, 2);
    assert_string_equal(c->morph_tracks[0].morph, "blink"); /* sorted by name */
    fx_near(c->morph_tracks[0].keys[0].weight, 1, 0);
    assert_string_equal(c->morph_tracks[1].morph, "smile");
    fx_near(c->morph_tracks[1].keys[1].weight, -2, 0);
    /* Options are replaced whole. */
    fx_ok(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"interpolation\":\"step\"}");
    c = clip(f, "walk");
    assert_int_equal(c->interpolation, MDL_INTERP_STEP);
    assert_false(c->root_motion);
    assert_int_equal(c->event_count, 0);
    assert_int_equal(c->morph_track_count, 0);
}

static void test_clip_options_refusals(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    fx_ok(f, WALK2);
    add_morph(f, "smile");
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"run\"}", "unknown_clip", "\"run\"");
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"interpolation\":\"bezier\"}",
            "out_of_range", "is not one of \"linear\", \"step\", \"cubic\"");
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"events\":[{\"time\":1,\"name\":"
               "\"a\"},{\"time\":0.5,\"name\":\"b\"}]}",
            "invalid_clip", "events[1].time");
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"events\":[{\"time\":2.5,\"name\":"
               "\"late\"}]}",
            "invalid_clip", "event 0 (\"late\") at 2.5 s lies past the clip's duration 2 s");
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"events\":[{\"time\":1,\"name\":"
               "\"a\",\"payload\":7}]}",
            "wrong_type", "events[0].payload");
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"morph_keys\":[{\"morph\":\"frown\","
               "\"keys\":[{\"time\":0,\"weight\":1}]}]}",
            "unknown_morph", "\"frown\"");
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"morph_keys\":[{\"morph\":\"smile\","
               "\"keys\":[{\"time\":1,\"weight\":1},{\"time\":1,\"weight\":0}]}]}",
            "invalid_clip", "morph_keys[0].keys[1].time");
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"morph_keys\":[{\"morph\":\"smile\","
               "\"keys\":[{\"time\":0,\"weight\":1}]},{\"morph\":\"smile\",\"keys\":"
               "[{\"time\":1,\"weight\":1}]}]}",
            "invalid_clip", "already morph_keys[0]");
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"morph_keys\":[{\"morph\":\"smile\","
               "\"keys\":[{\"time\":3,\"weight\":1}]}]}",
            "invalid_clip", "morph \"smile\" key 0 at 3 s");
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"morph_keys\":[{\"morph\":\"smile\","
               "\"keys\":[{\"time\":1,\"weight\":2.5}]}]}",
            "out_of_range", NULL);
    fx_refused(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"morph_keys\":[{\"morph\":\"smile\","
               "\"keys\":[{\"time\":-1,\"weight\":1}]}]}",
            "out_of_range", NULL);
    /* 4097 payload bytes, then 1025 events. */
    char *big = malloc(8192);
    assert_non_null(big);
    int n = snprintf(big, 8192, "{\"op\":\"clip_options\",\"name\":\"walk\",\"events\":[{\"time\":"
                                "0,\"name\":\"x\",\"payload\":\"");
    memset(big + n, 'p', 4097);
    strcpy(big + n + 4097, "\"}]}");
    fx_refused(f, big, "limit_exceeded", "4097 bytes");
    free(big);
    size_t cap = 64 + 1025 * 32;
    char *many = malloc(cap);
    assert_non_null(many);
    size_t o = (size_t)snprintf(many, cap, "{\"op\":\"clip_options\",\"name\":\"walk\","
                                           "\"events\":[");
    for (int i = 0; i < 1025; i++)
        o += (size_t)snprintf(many + o, cap - o, "%s{\"time\":1,\"name\":\"e\"}", i ? "," : "");
    snprintf(many + o, cap - o, "]}");
    fx_refused(f, many, "limit_exceeded", "1025 events");
    free(many);
    assert_false(clip(f, "walk")->has_options); /* refusals changed nothing */
}

/* A replaced clip keeps its options while they fit; delete_clip takes
 * them with it. */
static void test_clip_replacement_keeps_options(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    fx_ok(f, WALK2);
    add_morph(f, "smile");
    fx_ok(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"interpolation\":\"step\",\"events\":"
          "[{\"time\":1.5,\"name\":\"step\"}],\"morph_keys\":[{\"morph\":\"smile\",\"keys\":"
          "[{\"time\":1,\"weight\":0.5}]}]}");
    fx_ok(f, "{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":2,\"path\":\"scale\","
          "\"keys\":[{\"time\":0,\"value\":[1,1,1,0]},{\"time\":1.5,\"value\":[2,2,2,0]}]}]}");
    const mdl_clip *c = clip(f, "walk");
    assert_int_equal(c->channels[0].joint, 2);
    assert_true(c->has_options);
    assert_int_equal(c->interpolation, MDL_INTERP_STEP);
    assert_int_equal(c->event_count, 1);
    assert_string_equal(c->events[0].name, "step");
    assert_int_equal(c->morph_track_count, 1);
    fx_near(c->morph_tracks[0].keys[0].weight, 0.5, 0);
    fx_refused(f, "{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":2,\"path\":\"scale\","
               "\"keys\":[{\"time\":0,\"value\":[1,1,1,0]},{\"time\":1.2,\"value\":[2,2,2,0]}]}]}",
            "invalid_clip", "event 0 (\"step\") at 1.5 s");
    fx_ok(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"morph_keys\":[{\"morph\":\"smile\","
          "\"keys\":[{\"time\":1.5,\"weight\":0.5}]}]}");
    fx_refused(f, "{\"op\":\"clip\",\"name\":\"walk\",\"channels\":[{\"joint\":2,\"path\":\"scale\","
               "\"keys\":[{\"time\":1,\"value\":[1,1,1,0]}]}]}",
            "invalid_clip", "morph \"smile\" key 0 at 1.5 s");
    assert_int_equal(clip(f, "walk")->channels[0].keys[1].time, 1.5);
    fx_ok(f, "{\"op\":\"delete_clip\",\"name\":\"walk\"}");
    assert_int_equal(mdl_doc_find_clip(f->doc, "walk"), -1);
    fx_ok(f, WALK2);
    assert_false(clip(f, "walk")->has_options); /* a recreated clip starts bare */
}

/* Inspects the fixture's document; the reply is parsed into its arena. */
static const anim_json_value *inspect(fx *f, const char *params)
{
    anim_error err;
    anim_json_value *p = anim_json_parse(f->arena, params, strlen(params), NULL, &err);
    assert_non_null(p);
    anim_model_head head;
    memset(&head, 0, sizeof head);
    head.generation = 1;
    memset(head.content, 'a', 64);
    anim_strbuf reply = ANIM_STRBUF_INIT;
    anim_model_fault fault;
    anim_model_fault_init(&fault);
    assert_int_equal(mdl_inspect(f->doc, "d", &head, p, &f->limits, &reply, &fault), 0);
    assert_true(reply.len <= f->limits.max_reply_bytes);
    char *copy = anim_arena_strdup(f->arena, reply.data);
    const anim_json_value *v = anim_json_parse(f->arena, copy, strlen(copy), NULL, &err);
    anim_strbuf_free(&reply);
    assert_non_null(v);
    return v;
}

static void test_inspect_rig_and_options(void **state)
{
    fx *f = *state;
    fx_ok(f, SKELETON3);
    fx_ok(f, WALK2);
    add_morph(f, "smile");
    add_pose(f, 1, 2);
    add_constraint(f, MDL_CONSTRAINT_COPY, 2, 1);
    fx_ok(f, "{\"op\":\"clip_options\",\"name\":\"walk\",\"interpolation\":\"cubic\","
          "\"root_motion\":true,\"events\":[{\"time\":1,\"name\":\"step\"}],\"morph_keys\":"
          "[{\"morph\":\"smile\",\"keys\":[{\"time\":0,\"weight\":1}]}]}");
    const anim_json_value *o =
        anim_json_get(inspect(f, "{\"document\":\"d\",\"domain\":\"overview\"}"), "overview");
    const anim_json_value *counts = anim_json_get(o, "counts");
    assert_int_equal(anim_json_integer(anim_json_get(counts, "poses")), 1);
    assert_int_equal(anim_json_integer(anim_json_get(counts, "constraints")), 1);
    assert_int_equal(anim_json_integer(anim_json_get(counts, "morph_targets")), 1);
    const anim_json_value *inv = anim_json_get(o, "inventories");
    const anim_json_value *mt = anim_json_get(inv, "morph_targets");
    assert_int_equal(anim_json_integer(anim_json_get(mt, "total")), 1);
    assert_true(anim_json_string_eq(anim_json_item(anim_json_get(mt, "preview"), 0), "smile"));
    assert_true(anim_json_string_eq(
        anim_json_item(anim_json_get(anim_json_get(inv, "poses"), "preview"), 0), "p"));
    assert_true(anim_json_string_eq(
        anim_json_item(anim_json_get(anim_json_get(inv, "constraints"), "preview"), 0), "c"));
    const anim_json_value *clips = inspect(f, "{\"document\":\"d\",\"domain\":\"clips\"}");
    const anim_json_value *row = anim_json_item(anim_json_get(clips, "items"), 0);
    assert_true(anim_json_string_eq(anim_json_get(row, "interpolation"), "cubic"));
    assert_int_equal(anim_json_get(row, "root_motion")->type, ANIM_JSON_TRUE);
    assert_int_equal(anim_json_integer(anim_json_get(row, "event_count")), 1);
    assert_int_equal(anim_json_integer(anim_json_get(row, "morph_track_count")), 1);
    fx_near(anim_json_number(anim_json_get(row, "duration")), 2, 0);
}

/* ---- rig_mirror */

static anim_mat4 world_of(const mdl_doc *d, size_t i)
{
    const mdl_joint *j = &d->joints[i];
    anim_mat4 local = anim_mat4_from_trs(anim_vec3_from_array(j->translation),
                                         anim_quat_from_array(j->rotation),
                                         anim_vec3_from_array(j->scale));
    if (j->parent < 0)
        return local;
    anim_mat4 p = world_of(d, (size_t)j->parent);
    return anim_mat4_mul(&p, &local);
}

static const char *const ARM =
    "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"root\",\"translation\":[0,0,0]},"
    "{\"name\":\"arm_l\",\"parent\":0,\"translation\":[1,2,0]},"
    "{\"name\":\"hand_l\",\"parent\":1,\"translation\":[0,1,0]}]}";

static void test_rig_mirror(void **state)
{
    fx *f = *state;
    fx_ok(f, ARM);
    double s15 = sin(ANIM_PI / 12), c15 = cos(ANIM_PI / 12);
    char op[256];
    snprintf(op, sizeof op, "{\"op\":\"rig_rest\",\"joint\":1,\"transform\":{\"translation\":"
                            "[1,2,0],\"rotation\":[0,0,%.17g,%.17g]}}", s15, c15);
    fx_ok(f, op);
    box(f);
    fx_ok(f, "{\"op\":\"weights\",\"object\":\"box\",\"vertex\":\"1\",\"weights\":"
          "[{\"joint\":2,\"weight\":1}]}");
    fx_ok(f, "{\"op\":\"rig_mirror\",\"joints\":[2,1],\"axis\":0,\"names\":"
          "[{\"joint\":2,\"name\":\"hand_r\"},{\"joint\":1,\"name\":\"arm_r\"}]}");
    const mdl_doc *d = f->doc;
    assert_int_equal(d->joint_count, 5);
    assert_string_equal(d->joints[2].name, "hand_l"); /* originals keep their ordinals */
    assert_string_equal(d->joints[3].name, "arm_r");  /* parent first */
    assert_string_equal(d->joints[4].name, "hand_r");
    assert_int_equal(d->joints[3].parent, 0);
    assert_int_equal(d->joints[4].parent, 3); /* the selected parent's duplicate */
    /* arm_r: translation reflected, rotation about Z reversed. */
    fx_near(d->joints[3].translation[0], -1, 1e-12);
    fx_near(d->joints[3].translation[1], 2, 1e-12);
    fx_near(d->joints[3].rotation[2], -s15, 1e-12);
    fx_near(d->joints[3].rotation[3], c15, 1e-12);
    fx_near(d->joints[4].translation[1], 1, 1e-12);
    fx_near(d->joints[4].rotation[3], 1, 1e-12);
    /* Every world matrix of a duplicate is M * W * M of its original. */
    for (size_t k = 0; k < 2; k++) {
        anim_mat4 a = world_of(d, 1 + k), b = world_of(d, 3 + k);
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++) {
                double sign = ((c == 0) != (r == 0)) ? -1 : 1;
                fx_near(b.m[c * 4 + r], sign * a.m[c * 4 + r], 1e-12);
            }
    }
    anim_mat4 h = world_of(d, 4);
    fx_near(h.m[12], -1 + sin(ANIM_PI / 6), 1e-12);
    fx_near(h.m[13], 2 + cos(ANIM_PI / 6), 1e-12);
    size_t first;
    assert_int_equal(mdl_object_vertex_weights(d->objects[0], 1, &first), 1);
    assert_int_equal(d->objects[0]->weights[first].joint, 2);
    /* An unselected parent stays the parent; mirrored across Y. */
    fx_ok(f, "{\"op\":\"rig_mirror\",\"joints\":[2],\"axis\":1,\"names\":"
          "[{\"joint\":2,\"name\":\"hand_down\"}]}");
    assert_int_equal(d->joints[5].parent, 1);
    anim_mat4 a = world_of(d, 2), b = world_of(d, 5);
    fx_near(b.m[12], a.m[12], 1e-12);
    fx_near(b.m[13], -a.m[13], 1e-12);
}

static void test_rig_mirror_refusals(void **state)
{
    fx *f = *state;
    fx_ok(f, ARM);
    fx_refused(f, "{\"op\":\"rig_mirror\",\"joints\":[0],\"axis\":0,\"names\":"
               "[{\"joint\":0,\"name\":\"x\"}]}",
            "invalid_skeleton", "single root");
    fx_refused(f, "{\"op\":\"rig_mirror\",\"joints\":[7],\"axis\":0,\"names\":"
               "[{\"joint\":7,\"name\":\"x\"}]}",
            "unknown_joint", "joints[0]");
    fx_refused(f, "{\"op\":\"rig_mirror\",\"joints\":[1,1],\"axis\":0,\"names\":"
               "[{\"joint\":1,\"name\":\"x\"}]}",
            "invalid_operation", "selected twice");
    fx_refused(f, "{\"op\":\"rig_mirror\",\"joints\":[1,2],\"axis\":0,\"names\":"
               "[{\"joint\":1,\"name\":\"x\"}]}",
            "invalid_operation", "joint 2 has no name row");
    fx_refused(f, "{\"op\":\"rig_mirror\",\"joints\":[1],\"axis\":0,\"names\":"
               "[{\"joint\":2,\"name\":\"x\"}]}",
            "invalid_operation", "not selected");
    fx_refused(f, "{\"op\":\"rig_mirror\",\"joints\":[1],\"axis\":0,\"names\":"
               "[{\"joint\":1,\"name\":\"x\"},{\"joint\":1,\"name\":\"y\"}]}",
            "invalid_operation", "already named");
    fx_refused(f, "{\"op\":\"rig_mirror\",\"joints\":[1],\"axis\":0,\"names\":"
               "[{\"joint\":1,\"name\":\"hand_l\"}]}",
            "invalid_skeleton", "already the name of joint 2");
    fx_refused(f, "{\"op\":\"rig_mirror\",\"joints\":[1,2],\"axis\":0,\"names\":"
               "[{\"joint\":1,\"name\":\"x\"},{\"joint\":2,\"name\":\"x\"}]}",
            "invalid_skeleton", "names two duplicates");
    fx_refused(f, "{\"op\":\"rig_mirror\",\"joints\":[1],\"axis\":3,\"names\":"
               "[{\"joint\":1,\"name\":\"x\"}]}",
            "out_of_range", NULL);
    /* A rotated, nonuniformly scaled parent left unselected: shear. */
    fx_ok(f, "{\"op\":\"rig_rest\",\"joint\":1,\"transform\":{\"translation\":[1,2,0],"
          "\"rotation\":[0,0,0.25881904510252074,0.96592582628906831],\"scale\":[2,1,1]}}");
    fx_refused(f, "{\"op\":\"rig_mirror\",\"joints\":[2],\"axis\":0,\"names\":"
               "[{\"joint\":2,\"name\":\"x\"}]}",
            "mirror_shear", "include the parent chain");
    assert_int_equal(f->doc->joint_count, 3);
    /* With the parent chain selected the duplicate is exact. */
    fx_ok(f, "{\"op\":\"rig_mirror\",\"joints\":[1,2],\"axis\":0,\"names\":"
          "[{\"joint\":1,\"name\":\"x\"},{\"joint\":2,\"name\":\"y\"}]}");
    fx_near(f->doc->joints[3].scale[0], 2, 1e-12);
    fx_near(f->doc->joints[4].translation[1], 1, 1e-12);
    /* 256 joints at most. */
    char *big = malloc(64 * 256);
    assert_non_null(big);
    size_t o = (size_t)sprintf(big, "{\"op\":\"skeleton\",\"joints\":[{\"name\":\"j0\","
                                    "\"translation\":[0,0,0]}");
    for (int i = 1; i < 200; i++)
        o += (size_t)sprintf(big + o, ",{\"name\":\"j%d\",\"parent\":0,\"translation\":[0,0,0]}",
                             i);
    strcpy(big + o, "]}");
    fx_ok(f, big);
    o = (size_t)sprintf(big, "{\"op\":\"rig_mirror\",\"joints\":[");
    for (int i = 1; i <= 60; i++)
        o += (size_t)sprintf(big + o, "%s%d", i > 1 ? "," : "", i);
    o += (size_t)sprintf(big + o, "],\"axis\":0,\"names\":[");
    for (int i = 1; i <= 60; i++)
        o += (size_t)sprintf(big + o, "%s{\"joint\":%d,\"name\":\"m%d\"}", i > 1 ? "," : "", i, i);
    strcpy(big + o, "]}");
    fx_refused(f, big, "limit_exceeded", "(256)");
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_skeleton_keeps_identities, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_skeleton_refuses_lost_weight, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_skeleton_refuses_lost_references, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_rig_rest, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_rig_rename, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_rig_parent, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_rig_roll, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_clip_options, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_clip_options_refusals, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_clip_replacement_keeps_options, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_inspect_rig_and_options, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_rig_mirror, fx_setup, fx_teardown),
        cmocka_unit_test_setup_teardown(test_rig_mirror_refusals, fx_setup, fx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
