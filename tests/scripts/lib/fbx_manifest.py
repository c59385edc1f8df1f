#!/usr/bin/env python3
"""The corpus manifest's FBX facts, and the checks fbx_corpus_manifest.sh
runs against animsmith's output.

    fbx_manifest.py facts MANIFEST.md REL             the expected facts (JSON)
    fbx_manifest.py check MANIFEST.md REL INSPECT.json MEASURE.json [GLB]
    fbx_manifest.py same-measure A.json B.json [INSPECT.json]   two measures agree

`facts` reads the manifest's table row for REL (`fbx/NAME.fbx`): joints
(the LimbNode count), clips in order (name, curve count, span start-stop
in seconds), the file's `[keys a-b]` range when the row has one, and the
interpolation column; and the row's per-file `detail` JSON (UnitScaleFactor,
UpAxis) when present. The two peer files are self-authored ASCII fixtures
with no manifest row; their facts are written here, read off the files.

`check` prints one line per fact, "ok ..." or "FAIL ...", and exits 1 when
any fails. `same-measure` walks both JSON trees: every number within 1e-6
(absolute), every string equal except the fields naming the input (path,
sha256, bytes), the same keys and list lengths.
"""
import json
import math
import re
import struct
import sys

# Manifest values are printed with 3 decimals.
SPAN_TOL = 1.5e-3

# peer/*.fbx: no manifest row. One Null with a skin cluster (a joint),
# one take "take" over 0-1 s whose T_X curve goes 0 -> 100 cm; the second
# file adds an empty stack "empty".
PEER = {
    "peer/rigged_triangle.fbx": {
        "joints": 1,
        "clips": [{"name": "take", "curves": 1, "start": 0.0, "stop": 1.0}],
        "keys": [0.0, 1.0], "interp": "cubic", "detail": {"UnitScaleFactor": 1.0},
        "max_translation_m": 1.0,
    },
    "peer/rigged_triangle_empty_take.fbx": {
        "joints": 1,
        "clips": [{"name": "take", "curves": 1, "start": 0.0, "stop": 1.0},
                  {"name": "empty", "curves": 0, "start": None, "stop": None}],
        "keys": [0.0, 1.0], "interp": "cubic", "detail": {"UnitScaleFactor": 1.0},
        "max_translation_m": 1.0,
    },
}


def split_row(line):
    """Table cells, honouring the manifest's escaped pipes (`\\|`)."""
    cells, cur, i = [], "", 0
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    while i < len(body):
        if body[i] == "\\" and i + 1 < len(body) and body[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if body[i] == "|":
            cells.append(cur.strip())
            cur = ""
        else:
            cur += body[i]
        i += 1
    cells.append(cur.strip())
    return cells


def split_clips(text):
    """'a(x); b(y) [keys 0-1s]' -> (['a(x)', 'b(y)'], '[keys 0-1s]' or '')."""
    keys = ""
    m = re.search(r"\s*\[keys ([^\]]*)\]\s*$", text)
    if m:
        keys = m.group(1)
        text = text[:m.start()]
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == ";" and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts, keys


def parse_range(text):
    m = re.search(r"(-?[0-9.]+)-([0-9.]+)s", text)
    return (float(m.group(1)), float(m.group(2))) if m else (None, None)


def parse_clip(text):
    """'Skeleton|Base(36 curves, 0-0.042s)' -> dict. The name is everything
    before the last parenthesised group."""
    m = re.match(r"^(.*)\(([^()]*)\)$", text)
    if not m:
        return {"name": text, "curves": None, "start": None, "stop": None}
    name, inner = m.group(1), m.group(2)
    curves = None
    cm = re.search(r"(\d+) curves", inner)
    if cm:
        curves = int(cm.group(1))
    start, stop = parse_range(inner)
    return {"name": name, "curves": curves, "start": start, "stop": stop,
            "legacy_take": "take," in inner}


def facts(manifest, rel):
    if rel in PEER:
        return PEER[rel]
    with open(manifest, encoding="utf-8") as f:
        lines = f.read().split("\n")
    row = None
    for line in lines:
        if line.startswith("| `%s`" % rel):
            row = split_row(line)
            break
    if row is None:
        return None
    clip_parts, keys = split_clips(row[8])
    out = {
        "joints": int(row[7]),
        "clips": [parse_clip(c) for c in clip_parts],
        "keys": list(parse_range(keys + "s" if keys and not keys.endswith("s") else keys))
        if keys else None,
        "interp": row[9],
        "detail": {},
    }
    # The per-file section: "### REL" then "- detail: `{json}`".
    in_section = False
    for line in lines:
        if line.startswith("### "):
            in_section = line[4:].strip() == rel
            continue
        if in_section and line.startswith("- detail: `"):
            out["detail"] = json.loads(line[len("- detail: `"):].rstrip("`"))
    return out


# ---- a glTF/GLB reader just deep enough for key ranges and rest poses ----

def read_gltf(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"glTF":
        length = struct.unpack_from("<I", data, 12)[0]
        doc = json.loads(data[20:20 + length].decode("utf-8"))
        return doc
    return json.loads(data.decode("utf-8"))


def glb_clip_key_ranges(path):
    """Per animation name: [min, max] of its samplers' input accessors
    (glTF requires min/max on animation inputs)."""
    doc = read_gltf(path)
    out = {}
    for anim in doc.get("animations", []):
        lo, hi = math.inf, -math.inf
        for s in anim.get("samplers", []):
            acc = doc["accessors"][s["input"]]
            lo = min(lo, acc["min"][0])
            hi = max(hi, acc["max"][0])
        out[anim.get("name", "")] = [lo, hi]
    return out


# ---- checks ----

class Report:
    def __init__(self, rel):
        self.rel, self.failed = rel, False

    def ok(self, cond, what):
        if not cond:
            self.failed = True
        print("%s %s: %s" % ("ok  " if cond else "FAIL", self.rel, what))


def joint_count(inspect):
    """Joints of an FBX file: inspect's fbx.joint_count (LimbNodes and
    skin cluster links; the implicit <fbx-root> is not one)."""
    return inspect.get("fbx", {}).get("joint_count", -1)


def takes(inspect):
    return inspect.get("fbx", {}).get("takes", [])


def check(manifest, rel, inspect_path, measure_path, glb_path=None):
    want = facts(manifest, rel)
    r = Report(rel)
    if want is None:
        r.ok(False, "no manifest row")
        return 1
    with open(inspect_path, encoding="utf-8") as f:
        ins = json.load(f)
    with open(measure_path, encoding="utf-8") as f:
        mea = json.load(f)
    got_joints = joint_count(ins)
    r.ok(got_joints == want["joints"],
         "joints %d (manifest %d)" % (got_joints, want["joints"]))
    clips = ins.get("clips", [])
    names = [c["name"] for c in clips]
    r.ok(names == [c["name"] for c in want["clips"]],
         "clips %s (manifest %s)" % (names, [c["name"] for c in want["clips"]]))
    ranges = glb_clip_key_ranges(glb_path) if glb_path else {}
    union = [math.inf, -math.inf]
    for wc in want["clips"]:
        got = next((c for c in clips if c["name"] == wc["name"]), None)
        if got is None:
            continue
        tracks = got.get("track_count", 0)
        if wc["curves"] == 0:
            r.ok(tracks == 0, "clip '%s' is empty (%d tracks)" % (wc["name"], tracks))
            if glb_path:
                r.ok(wc["name"] not in ranges, "empty clip '%s' left out of the GLB" % wc["name"])
            continue
        r.ok(tracks > 0, "clip '%s' has %d tracks" % (wc["name"], tracks))
        # The stack's span, from inspect's fbx.takes.
        take = next((t for t in takes(ins) if t.get("name") == wc["name"]), {})
        start, stop = take.get("start_s"), take.get("stop_s")
        wstart = wc["start"] if wc["start"] is not None else 0.0
        if wc["stop"] is not None:
            r.ok(stop is not None and abs(stop - wc["stop"]) <= SPAN_TOL
                 and abs((start or 0.0) - wstart) <= SPAN_TOL,
                 "clip '%s' span %s-%s (manifest %s-%s)" % (wc["name"], start, stop, wstart, wc["stop"]))
        kr = ranges.get(wc["name"])
        if glb_path:
            r.ok(kr is not None, "clip '%s' in the converted GLB" % wc["name"])
        if kr is None:
            continue
        union = [min(union[0], kr[0]), max(union[1], kr[1])]
        if wc["stop"] is not None:
            # Keys lie in the stack's span; the stack may run past its last
            # key (kenney: stop 0.833 s, keys end 0.667 s), never the other way.
            r.ok(kr[0] >= wstart - SPAN_TOL and kr[1] <= wc["stop"] + SPAN_TOL,
                 "clip '%s' keys %.4f-%.4f s inside span %.3f-%.3f s"
                 % (wc["name"], kr[0], kr[1], wstart, wc["stop"]))
    if want["keys"] and union[0] <= union[1]:
        a, b = want["keys"]
        r.ok(abs(union[0] - a) <= SPAN_TOL and abs(union[1] - b) <= SPAN_TOL,
             "keys %.4f-%.4f s (manifest [keys %.3f-%.3f])" % (union[0], union[1], a, b))
    check_units(r, rel, want, ins, mea)
    if "max_translation_m" in want and glb_path:
        got = glb_translation_max(glb_path)
        r.ok(abs(got - want["max_translation_m"]) <= 1e-6,
             "largest translation key %.6f m (file: %.6f m)" % (got, want["max_translation_m"]))
    return 1 if r.failed else 0


def check_units(r, rel, want, ins, mea):
    """Metres: the unit scale the manifest gives is the one read; a Mixamo
    hips rests about 1 m up; a skeleton spans 1 cm to 50 m (a centimetre
    file read as metres would span 100x more; the exact positions are the
    assimp cross-check's)."""
    usf = want.get("detail", {}).get("UnitScaleFactor")
    got_usf = ins.get("fbx", {}).get("unit_scale_factor")
    if usf is not None:
        r.ok(got_usf == usf, "unit_scale_factor %s (manifest %s)" % (got_usf, usf))
    m = mea["files"][0]["measurements"]
    nodes = m.get("skeleton_nodes", [])
    pts = {n["name"]: n["rest_world_translation_m"] for n in nodes
           if isinstance(n.get("rest_world_translation_m"), list)}
    if not pts:
        r.ok(False, "no rest_world_translation_m in measure")
        return
    hips = pts.get("mixamorig:Hips")
    if hips is not None:
        r.ok(0.8 <= hips[1] <= 1.3, "mixamorig:Hips rests %.3f m up" % hips[1])
    span = 0.0
    vals = list(pts.values())
    for axis in range(3):
        span = max(span, max(p[axis] for p in vals) - min(p[axis] for p in vals))
    if span > 0:
        r.ok(0.01 <= span <= 50.0, "skeleton spans %.3f m" % span)


def glb_translation_max(path):
    """Largest |component| of any translation key in a GLB (float VEC3)."""
    with open(path, "rb") as f:
        data = f.read()
    jlen = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + jlen])
    binary = data[28 + jlen:]
    best = 0.0
    for anim in doc.get("animations", []):
        for ch in anim["channels"]:
            if ch["target"].get("path") != "translation":
                continue
            acc = doc["accessors"][anim["samplers"][ch["sampler"]]["output"]]
            view = doc["bufferViews"][acc["bufferView"]]
            base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
            stride = view.get("byteStride", 12)
            for k in range(acc["count"]):
                best = max(best, max(abs(v) for v in struct.unpack_from("<3f", binary, base + k * stride)))
    return best


# ---- measure(FBX) == measure(converted GLB) ----

INPUT_FIELDS = {"path", "sha256", "bytes"}


def same_tree(a, b, where, out):
    if isinstance(a, bool) or isinstance(b, bool):
        if a is not b:
            out.append("%s: %r != %r" % (where, a, b))
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if not (math.isfinite(a) and math.isfinite(b)) or abs(a - b) > 1e-6:
            out.append("%s: %r != %r" % (where, a, b))
    elif isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in INPUT_FIELDS and where.count("/") <= 3:
                continue
            if k not in a or k not in b:
                out.append("%s/%s: only in %s" % (where, k, "first" if k in a else "second"))
            else:
                same_tree(a[k], b[k], "%s/%s" % (where, k), out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append("%s: %d items != %d" % (where, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            same_tree(x, y, "%s[%d]" % (where, i), out)
    elif a != b:
        out.append("%s: %r != %r" % (where, a, b))


def same_measure(pa, pb, inspect_path=None):
    """A: the FBX's measure, B: its GLB's. The FBX document keeps its empty
    takes, which convert leaves out: with INSPECT (the FBX's inspect JSON),
    clips of A missing from B are dropped when inspect gives them 0 tracks."""
    with open(pa, encoding="utf-8") as f:
        a = json.load(f)
    with open(pb, encoding="utf-8") as f:
        b = json.load(f)
    out = []
    if inspect_path:
        with open(inspect_path, encoding="utf-8") as f:
            ins = json.load(f)
        empty = {c["name"] for c in ins.get("clips", []) if c.get("track_count") == 0}
        for fa, fb in zip(a.get("files", []), b.get("files", [])):
            ca = fa.get("measurements", {}).get("clips", {})
            cb = fb.get("measurements", {}).get("clips", {})
            for name in [n for n in ca if n not in cb]:
                if name in empty:
                    del ca[name]
                else:
                    out.append("clip %r with tracks missing from the GLB" % name)
    same_tree(a, b, "", out)
    for line in out[:20]:
        print("  " + line)
    if len(out) > 20:
        print("  ... %d differences in all" % len(out))
    return 1 if out else 0


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(argv) == 4 and argv[1] == "facts":
        print(json.dumps(facts(argv[2], argv[3]), indent=1))
        return 0
    if len(argv) in (6, 7) and argv[1] == "check":
        return check(*argv[2:])
    if len(argv) in (4, 5) and argv[1] == "same-measure":
        return same_measure(*argv[2:])
    print("usage: fbx_manifest.py facts|check|same-measure ... (see --help)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
