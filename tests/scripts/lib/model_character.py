#!/usr/bin/env python3
"""A small character built end to end over `animsmith model serve --store`.

Used by tests/scripts/model_character.sh: usage model_character.py ANIMSMITH
WORKDIR. Builds a skeleton with a leg chain, a polygon-mesh body, bind
weights with a locked group, a pose, an IK solve on it, baked `walk` (a
loop) and `idle` clips, a blend of the two, a morph target keyed in walk,
then publishes it as a Character, reopens it by alias, compiles it again
and expects the same GLB bytes. Writes WORKDIR/character.glb for the lint
and validator steps of the shell script. Every failed expectation is
printed; the exit status is 1 when any failed.
"""
import base64
import hashlib
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_robot import Server, check, failures  # noqa: E402

DOC = "hero"


def quat_x(angle):
    return [math.sin(angle / 2), 0.0, 0.0, math.cos(angle / 2)]


def body_mesh():
    """A closed box body from the hips down to the feet, four rings high."""
    positions, polygons = [], []
    rings = [(-0.02, 0.15), (0.45, 0.15), (0.9, 0.2), (1.3, 0.18)]
    for y, r in rings:
        for x, z in ((-r, -r), (r, -r), (r, r), (-r, r)):
            positions.append([x, y, z])
    for k in range(len(rings) - 1):
        for i in range(4):
            a, b = 4 * k + i, 4 * k + (i + 1) % 4
            polygons.append({"vertices": [a, b, b + 4, a + 4]})
    polygons.append({"vertices": [3, 2, 1, 0]})
    top = 4 * (len(rings) - 1)
    polygons.append({"vertices": [top, top + 1, top + 2, top + 3]})
    return positions, polygons


def wait_job(srv, job):
    end = time.time() + 120
    while time.time() < end:
        r = srv.ok("model.job", {"job": job})
        if r["state"] not in ("queued", "running"):
            return r
        time.sleep(0.01)
    return {"state": "timeout"}


def main():
    binary, work = sys.argv[1], sys.argv[2]
    srv = Server(binary, ["--store", os.path.join(work, "assets.db")])
    head = srv.ok("model.open", {"document": DOC})["head"]
    n = [0]

    def apply(ops):
        nonlocal head
        n[0] += 1
        r = srv.ok("model.apply", {"document": DOC, "request_id": "c%d" % n[0],
                                   "expected": head, "operations": ops})
        head = r["head"]
        return r

    positions, polygons = body_mesh()
    apply([
        {"op": "skeleton", "joints": [
            {"name": "hips", "parent": None, "translation": [0, 0.9, 0]},
            {"name": "spine", "parent": 0, "translation": [0, 0.2, 0]},
            {"name": "thigh", "parent": 0, "translation": [0.1, -0.05, 0]},
            {"name": "shin", "parent": 2, "translation": [0, -0.42, 0]},
            {"name": "foot", "parent": 3, "translation": [0, -0.42, 0]}]},
        {"op": "polygon_mesh", "object": "body", "positions": positions, "polygons": polygons},
    ])
    # Lock the spine group at what auto_weights gave it, then bind the rest.
    apply([{"op": "auto_weights", "object": "body"},
           {"op": "weight_locks", "object": "body", "joints": [1]},
           {"op": "weight_edit", "object": "body", "vertices": [],
            "edit": {"type": "bind", "max_influences": 4}}])
    weights = srv.ok("model.inspect", {"document": DOC, "object": "body", "domain": "weights",
                                       "limit": 128})
    sums = {}
    for w in weights["items"]:
        sums[w["vertex"]] = sums.get(w["vertex"], 0) + w["weight"]
    check(sums and all(abs(s - 1) < 1e-9 for s in sums.values()),
          "bound weights sum to one on every vertex")
    # The walk swings the thigh through the stand pose at constant speed
    # (stand, forward, stand, back, stand), so the loop's seam is smooth.
    apply([{"op": "pose", "name": "stand", "joints": [
              {"joint": 1, "transform": {"translation": [0, 0.2, 0], "rotation": quat_x(0.05)}}]},
           {"op": "pose", "name": "forward", "joints": [
              {"joint": 1, "transform": {"translation": [0, 0.2, 0], "rotation": quat_x(0.05)}},
              {"joint": 2, "transform": {"translation": [0.1, -0.05, 0],
                                         "rotation": quat_x(-0.4)}}]},
           {"op": "pose", "name": "back", "joints": [
              {"joint": 1, "transform": {"translation": [0, 0.2, 0], "rotation": quat_x(0.05)}},
              {"joint": 2, "transform": {"translation": [0.1, -0.05, 0],
                                         "rotation": quat_x(0.4)}}]},
           {"op": "pose", "name": "crouch", "joints": []}])
    # Plant the foot ahead with IK on the crouch pose: the solver keeps the
    # bone lengths (0.42 each) and bends the knee toward the pole.
    apply([{"op": "ik", "pose": "crouch", "root": 2, "middle": 3, "end": 4,
            "target": [0.1, 0.15, 0.3], "pole": [0.1, 0.5, 1.0]}])
    apply([{"op": "bake_clip", "name": "walk", "fps": 30, "poses": [
              {"time": 0, "pose": "stand"}, {"time": 0.25, "pose": "forward"},
              {"time": 0.5, "pose": "stand"}, {"time": 0.75, "pose": "back"},
              {"time": 1.0, "pose": "stand"}]},
           {"op": "bake_clip", "name": "idle", "poses": [
              {"time": 0, "pose": "stand"}, {"time": 1.0, "pose": "crouch"},
              {"time": 2.0, "pose": "stand"}]},
           {"op": "blend_clip", "name": "walk_idle", "a": "walk", "b": "idle", "weight": 0.5}])
    apply([{"op": "morph", "name": "breathe", "object": "body",
            "deltas": [{"vertex": "9", "delta": [0, 0, 0.02]},
                       {"vertex": "10", "delta": [0, 0, 0.02]}]},
           {"op": "clip_options", "name": "walk", "interpolation": "linear",
            "events": [{"time": 0.25, "name": "footstep", "payload": "left"},
                       {"time": 0.75, "name": "footstep", "payload": "right"}],
            "morph_keys": [{"morph": "breathe", "keys": [{"time": 0, "weight": 0},
                                                          {"time": 0.5, "weight": 1},
                                                          {"time": 1.0, "weight": 0}]}]}])
    clips = srv.ok("model.inspect", {"document": DOC, "domain": "clips", "limit": 16})
    names = sorted(c["name"] for c in clips["items"])
    check(names == ["idle", "walk", "walk_idle"], "three clips: %r" % names)
    compiled = srv.ok("model.compile", {"document": DOC, "expected": head}, capped=False)
    glb = base64.b64decode(compiled["glb"])
    with open(os.path.join(work, "character.glb"), "wb") as f:
        f.write(glb)
    job = srv.ok("model.publish", {"document": DOC, "expected": head, "alias": "chars/hero",
                                   "expected_alias": None})["job"]
    j = wait_job(srv, job)
    check(j["state"] == "completed", "publication completes: %r" % j)
    res = j.get("result", {})
    check(res.get("kind") == "Character", "the character is a Character: %r" % res)
    check(res.get("glb_sha256") == hashlib.sha256(glb).hexdigest(),
          "the published GLB is the compiled GLB")
    again = srv.ok("model.open", {"document": "hero-reopened", "alias": "chars/hero"})
    check(again["head"]["content"] == head["content"], "reopened at the published content")
    recompiled = srv.ok("model.compile", {"document": "hero-reopened", "expected": again["head"]},
                        capped=False)
    check(base64.b64decode(recompiled["glb"]) == glb, "the reopened character compiles to the "
          "same bytes")
    srv.close()
    if failures:
        print("%d expectation(s) failed" % len(failures))
        return 1
    print("character built, published, reopened by alias and compiled to the same bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
