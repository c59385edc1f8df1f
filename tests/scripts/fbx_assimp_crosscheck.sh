#!/usr/bin/env bash
# Cross-check of world-space node positions against an independent FBX
# reader, Debian's assimp (libassimp-dev; skipped, saying why, when its
# header or library is absent). tests/tools/assimp_crosscheck.c is
# compiled here with cc and prints assimp's positions (pivots off, in
# metres, Y-up) at rest and at the first, middle and last key of the first
# animation; ours come from `animsmith convert FILE -o X.glb`, decoded here
# (node TRS, LINEAR/STEP samplers, world = product of ancestors) at the
# same times, assimp's rebased times shifted to our first key. Prints per
# file and pose the max and median difference over joints and over other
# nodes matched by name, flagging those over 1 mm. Differences do not fail
# the test (they are explained in the FBX reader's notes); a file assimp
# loads and we do not load does. Files: ../shared/corpus fbx/*.fbx,
# peer/*.fbx and /usr/share/assimp/models/FBX when present.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
corpus=${ANIMSMITH_CORPUS:-$src/../shared/corpus}
if ! command -v cc >/dev/null 2>&1 || ! pkg-config --exists assimp 2>/dev/null ||
    [[ ! -f $(pkg-config --variable=includedir assimp)/assimp/cimport.h ]]; then
    echo "skipped: assimp not found (pkg-config assimp; Debian: apt-get install libassimp-dev)"
    exit 77
fi
files=()
for f in "$corpus"/fbx/*.fbx "$corpus"/peer/*.fbx /usr/share/assimp/models/FBX/*.fbx \
    /usr/share/assimp/models/FBX/*/*.fbx; do
    [[ -f $f ]] && files+=("$f")
done
if [[ ${#files[@]} -eq 0 ]]; then
    echo "skipped: no FBX file (corpus not found at $corpus, no /usr/share/assimp/models/FBX)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tool=$tmp/assimp_crosscheck
# shellcheck disable=SC2046
if ! cc -std=c11 -O2 $(pkg-config --cflags assimp) "$src/tests/tools/assimp_crosscheck.c" \
    -o "$tool" $(pkg-config --libs assimp) -lm 2>"$tmp/cc.err"; then
    echo "FAIL: tests/tools/assimp_crosscheck.c does not compile:"
    head -20 "$tmp/cc.err"
    exit 1
fi
cd "$tmp" || exit 2

fail=0
for f in "${files[@]}"; do
    name=$(basename "$f")
    timeout 120 "$tool" "$f" >"$tmp/assimp.txt" 2>"$tmp/assimp.err"
    acode=$?
    timeout 300 "$bin" convert "$f" -o "$tmp/ours.glb" >/dev/null 2>"$tmp/ours.err"
    ocode=$?
    if [[ $acode -ne 0 ]]; then
        if [[ $ocode -eq 0 ]]; then
            echo "== $name: assimp refuses it ($(head -1 "$tmp/assimp.err" | cut -c1-160)); we load it"
        else
            echo "== $name: neither loads (assimp: $(head -1 "$tmp/assimp.err" | cut -c1-120); ours: $(head -1 "$tmp/ours.err"))"
        fi
        continue
    fi
    if [[ $ocode -ne 0 ]]; then
        echo "FAIL $name: assimp loads it, our convert exits $ocode: $(head -1 "$tmp/ours.err")"
        fail=1
        continue
    fi
    python3 - "$name" "$tmp/assimp.txt" "$tmp/ours.glb" <<'PY' || fail=1
import json, math, struct, sys

label, assimp_path, glb_path = sys.argv[1:4]

def read_glb(path):
    data = open(path, "rb").read()
    jlen = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + jlen])
    off = 20 + jlen
    binary = b""
    if off + 8 <= len(data):
        blen = struct.unpack_from("<I", data, off)[0]
        binary = data[off + 8:off + 8 + blen]
    return doc, binary

COMP = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
FMT = {5126: ("f", 4), 5123: ("H", 2), 5121: ("B", 1), 5122: ("h", 2), 5120: ("b", 1), 5125: ("I", 4)}
NORM = {5123: 65535.0, 5121: 255.0, 5122: 32767.0, 5120: 127.0}

CACHE = {}

def accessor(doc, binary, i):
    if i in CACHE:
        return CACHE[i]
    a = doc["accessors"][i]
    n, c = a["count"], COMP[a["type"]]
    code, size = FMT[a["componentType"]]
    view = doc["bufferViews"][a["bufferView"]]
    stride = view.get("byteStride", size * c)
    base = view.get("byteOffset", 0) + a.get("byteOffset", 0)
    out = []
    for k in range(n):
        vals = struct.unpack_from("<%d%s" % (c, code), binary, base + k * stride)
        if a.get("normalized") and a["componentType"] in NORM:
            vals = tuple(max(v / NORM[a["componentType"]], -1.0) for v in vals)
        out.append(vals)
    CACHE[i] = out
    return out

def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)

def slerp(a, b, u):
    d = sum(x * y for x, y in zip(a, b))
    if d < 0:
        b, d = tuple(-x for x in b), -d
    if d > 0.9999995:
        r = tuple(x + u * (y - x) for x, y in zip(a, b))
    else:
        th = math.acos(d)
        s = math.sin(th)
        r = tuple((math.sin((1 - u) * th) * x + math.sin(u * th) * y) / s for x, y in zip(a, b))
    n = math.sqrt(sum(x * x for x in r))
    return tuple(x / n for x in r)

def sample(times, values, interp, path, t):
    if t <= times[0] or len(times) == 1:
        return values[0] if interp != "CUBICSPLINE" else values[1]
    if t >= times[-1]:
        return values[-1] if interp != "CUBICSPLINE" else values[-2]
    lo, hi = 0, len(times) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if times[mid] <= t:
            lo = mid
        else:
            hi = mid
    if interp == "STEP":
        return values[lo]
    if interp == "CUBICSPLINE":  # keys as (in, value, out) triples
        return values[3 * lo + 1]
    u = (t - times[lo]) / (times[hi] - times[lo])
    a, b = values[lo], values[hi]
    if path == "rotation":
        return slerp(a, b, u)
    return tuple(x + u * (y - x) for x, y in zip(a, b))

def matrix(t, r, s):
    x, y, z, w = r
    m = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
         [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
         [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    return [[m[i][0] * s[0], m[i][1] * s[1], m[i][2] * s[2], t[i]] for i in range(3)] + [[0, 0, 0, 1]]

def mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]

doc, binary = read_glb(glb_path)
nodes = doc.get("nodes", [])
parent = {}
for i, n in enumerate(nodes):
    for c in n.get("children", []):
        parent[c] = i
joints = set()
for s in doc.get("skins", []):
    joints.update(s["joints"])

def rest_trs(i):
    n = nodes[i]
    if "matrix" in n:
        return ("matrix", n["matrix"])
    return (tuple(n.get("translation", (0, 0, 0))), tuple(n.get("rotation", (0, 0, 0, 1))),
            tuple(n.get("scale", (1, 1, 1))))

def our_positions(anim, t):
    trs = {i: list(rest_trs(i)) for i in range(len(nodes))}
    if anim is not None:
        for ch in anim["channels"]:
            tgt = ch["target"]
            if "node" not in tgt or tgt["path"] not in ("translation", "rotation", "scale"):
                continue
            if trs[tgt["node"]][0] == "matrix":
                continue
            smp = anim["samplers"][ch["sampler"]]
            times = [v[0] for v in accessor(doc, binary, smp["input"])]
            values = accessor(doc, binary, smp["output"])
            v = sample(times, values, smp.get("interpolation", "LINEAR"), tgt["path"], t)
            trs[tgt["node"]][("translation", "rotation", "scale").index(tgt["path"])] = v
    world = {}
    def w(i):
        if i not in world:
            if trs[i][0] == "matrix":
                m = trs[i][1]
                local = [[m[c * 4 + r] for c in range(4)] for r in range(4)]
            else:
                local = matrix(*trs[i])
            world[i] = mul(w(parent[i]), local) if i in parent else local
        return world[i]
    out = {}
    for i, n in enumerate(nodes):
        m = w(i)
        out.setdefault(n.get("name", ""), (m[0][3], m[1][3], m[2][3], i))
    return out

# assimp's side
poses, anim_name, cur = [], None, None
for line in open(assimp_path, encoding="utf-8", errors="replace"):
    parts = line.rstrip("\n").split("\t")
    if parts[0] == "anim":
        anim_name = parts[1]
    elif parts[0] == "pose":
        cur = {"time": None if parts[1] == "rest" else float(parts[1]), "nodes": {}}
        poses.append(cur)
    elif parts[0] == "node" and cur is not None:
        cur["nodes"].setdefault(parts[1], tuple(float(x) for x in parts[2:5]))

anims = doc.get("animations", [])
ours_anim = None
if anim_name is not None:
    bare = anim_name.split("::", 1)[-1]
    ours_anim = next((a for a in anims if a.get("name") == bare), anims[0] if anims else None)
shift = 0.0
if ours_anim is not None:
    first = min(accessor(doc, binary, s["input"])[0][0] for s in ours_anim["samplers"])
    akeys = [p["time"] for p in poses if p["time"] is not None]
    shift = first - (min(akeys) if akeys else 0.0)

print("== %s: assimp clip %r, ours %r, time shift %+.4f s" % (
    label, anim_name, ours_anim.get("name") if ours_anim else None, shift))
print("  %-10s %-7s %5s %10s %10s %6s  %s" % ("pose", "set", "nodes", "max mm", "median mm", ">1mm", "worst"))
for p in poses:
    if p["time"] is None:
        ours, tag = our_positions(None, 0.0), "rest"
    else:
        ours = our_positions(ours_anim, p["time"] + shift)
        tag = "%.4fs" % (p["time"] + shift)
    sets = {"joints": [], "others": []}
    for name, a in p["nodes"].items():
        o = ours.get(name)
        if o is None:
            continue
        d = 1000.0 * math.dist(a, o[:3])
        sets["joints" if o[3] in joints else "others"].append((d, name))
    for key, rows in sets.items():
        if not rows:
            continue
        rows.sort()
        med = rows[len(rows) // 2][0]
        over = sum(1 for d, _ in rows if d > 1.0)
        print("  %-10s %-7s %5d %10.3f %10.3f %6d  %s%s" % (tag, key, len(rows), rows[-1][0], med, over,
              rows[-1][1], "  <-- over 1 mm" if rows[-1][0] > 1.0 else ""))
names_a = set(poses[0]["nodes"]) if poses else set()
names_o = set(n.get("name", "") for n in nodes)
print("  unmatched: %d assimp-only (%s), %d ours-only (%s)" % (
    len(names_a - names_o), ", ".join(sorted(names_a - names_o)[:4]),
    len(names_o - names_a), ", ".join(sorted(names_o - names_a)[:4])))
PY
done
exit $fail
