#!/usr/bin/env bash
# `convert --bake-static-mesh-transforms` and `--material-texture-recipe`
# end to end on examples/assets/fbx-static-prop.fbx. The bake: its
# evidence entries in source-node order, an identity root with identity
# mesh children, baked positions equal to the unbaked GLB's world
# positions (node TRS products times POSITION, to 1e-5), unit normals;
# refused (exit 2, nothing written, an existing output kept with its
# permissions) on a skinned or animated input and with --animation-only.
# Recipes: two generated PNGs land on the named materials' base colour and
# normal slots, max_dimension resizes the larger one and keeps the smaller
# one's bytes; a recipe that does not fit the materials is an asset
# refusal (exit 1, one producer-refusal record in JSON mode, one stderr
# line in text mode); a malformed or escaping recipe, a recipe with
# --animation-only, an output that is the recipe or one of its images, and
# a glTF input with the bake or a recipe are operator errors (exit 2);
# --animation-only on a glTF input writes its skeleton and clips.
set -u
. "$(dirname "$0")/lib/script_help.sh"
. "$(dirname "$0")/lib/gltf_validator.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
a=$src/examples/assets
prop=$a/fbx-static-prop.fbx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
if gltf_validator_find; then validate=1; else validate=0; echo "note: $GLTF_VALIDATOR_MISSING"; fi
validator_clean() {
    ((validate)) || return 0
    local errs
    errs=$(validator_errors "$1") || return 1
    [[ -z $errs ]] || { echo "$errs" | sed 's/^/  /' | head -5; return 1; }
}

# ---- the bake ----
"$bin" convert "$prop" -o "$tmp/plain.glb" >/dev/null || { echo "FAIL plain conversion"; exit 1; }
"$bin" convert "$prop" -o "$tmp/baked.glb" --bake-static-mesh-transforms --format json \
    >"$tmp/bake.json" 2>"$tmp/err"
code=$?
check "bake: exit 0, empty stderr" '[[ $code == 0 && ! -s $tmp/err ]]'
check "bake: validator clean" 'validator_clean "$tmp/baked.glb"'

cat >"$tmp/glb.py" <<'PY'
import json, struct
def load(path):
    b = open(path, "rb").read()
    n = struct.unpack("<I", b[12:16])[0]
    doc = json.loads(b[20:20 + n])
    return doc, b[20 + n + 8:]
def view_bytes(doc, binc, view):
    v = doc["bufferViews"][view]
    return binc[v.get("byteOffset", 0):v.get("byteOffset", 0) + v["byteLength"]]
def vec3s(doc, binc, acc):
    a = doc["accessors"][acc]
    assert a["componentType"] == 5126 and a["type"] == "VEC3"
    v = doc["bufferViews"][a["bufferView"]]
    off = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    stride = v.get("byteStride", 12)
    return [struct.unpack_from("<3f", binc, off + i * stride) for i in range(a["count"])]
def image_bytes(doc, binc, tex):
    return view_bytes(doc, binc, doc["images"][doc["textures"][tex]["source"]]["bufferView"])
def mat_mul(a, b):  # column-major 4x4
    return [sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4)) for c in range(4) for r in range(4)]
def local(node):
    if "matrix" in node:
        return node["matrix"]
    t = node.get("translation", [0, 0, 0])
    x, y, z, w = node.get("rotation", [0, 0, 0, 1])
    s = node.get("scale", [1, 1, 1])
    r = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
         2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
         2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]
    m = [0.0] * 16
    for c in range(3):
        for k in range(3):
            m[c * 4 + k] = r[c * 3 + k] * s[c]
    m[12:15] = t
    m[15] = 1.0
    return m
def worlds(doc):
    parent = {}
    for i, n in enumerate(doc["nodes"]):
        for c in n.get("children", []):
            parent[c] = i
    out = {}
    def world(i):
        if i not in out:
            out[i] = mat_mul(world(parent[i]), local(doc["nodes"][i])) if i in parent \
                else local(doc["nodes"][i])
        return out[i]
    for i in range(len(doc["nodes"])):
        world(i)
    return out, parent
def apply(m, p, w=1.0):
    return [m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r] * w for r in range(3)]
PY

cat >"$tmp/bake_check.py" <<'PY'
import json, math, sys
sys.path.insert(0, sys.argv[1])
from glb import load, vec3s, worlds, apply
ev = json.load(open(sys.argv[2]))
plain, pbin = load(sys.argv[3])
baked, bbin = load(sys.argv[4])
bad = []
keys = ["source_node_index", "source_node_name", "source_mesh_ordinal", "source_mesh_index",
        "source_mesh_name", "output_node_index", "output_mesh_index", "world_transform",
        "linear_determinant", "primitive_count", "position_count", "normal_count"]
if ev["options"] != {"animation_only": False, "bake_static_mesh_transforms": True,
                     "material_texture_recipe": None}:
    bad.append(f"options {ev['options']}")
if list(ev)[-1] != "static_mesh_bake" or "material_texture_recipe" in ev:
    bad.append(f"keys {list(ev)}")
entries = ev["static_mesh_bake"]["entries"]
if [e["source_node_name"] for e in entries] != ["Crate", "Trim"]:
    bad.append(f"entries {[e['source_node_name'] for e in entries]}")
if [e["source_node_index"] for e in entries] != sorted(e["source_node_index"] for e in entries):
    bad.append("entries not in source-node order")
art = ev["artifact"]
if art != {"nodes": 3, "animations": 0, "meshes": 2, "primitive_positions": 48, "materials": 2,
           "clips_without_writable_tracks": 1}:
    bad.append(f"artifact {art}")
pw, _ = worlds(plain)
# The output: one identity root whose children are identity mesh nodes.
def identity(n):
    return n.get("translation", [0, 0, 0]) == [0, 0, 0] and \
        n.get("rotation", [0, 0, 0, 1]) == [0, 0, 0, 1] and \
        n.get("scale", [1, 1, 1]) == [1, 1, 1] and \
        n.get("matrix", [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) == \
        [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
nodes = baked["nodes"]
scene = baked["scenes"][baked.get("scene", 0)]["nodes"]
if scene != [0] or not identity(nodes[0]) or "mesh" in nodes[0] or \
        nodes[0].get("children") != [e["output_node_index"] for e in entries] or len(nodes) != 3:
    bad.append(f"root {nodes[0]}, scene {scene}")
for e in entries:
    if list(e) != keys:
        bad.append(f"entry keys {list(e)}")
        continue
    src_node = plain["nodes"][e["source_node_index"]]
    if src_node.get("name") != e["source_node_name"] or src_node.get("mesh") != e["source_mesh_index"] \
            or plain["meshes"][e["source_mesh_index"]].get("name") != e["source_mesh_name"] \
            or e["source_mesh_ordinal"] != 0:
        bad.append(f"{e['source_node_name']}: source identity {e}")
    out = nodes[e["output_node_index"]]
    if not identity(out) or out.get("mesh") != e["output_mesh_index"] or out.get("children"):
        bad.append(f"{e['source_node_name']}: output node {out}")
    w = e["world_transform"]
    ref = pw[e["source_node_index"]]
    if len(w) != 16 or max(abs(x - y) for x, y in zip(w, ref)) > 1e-6:
        bad.append(f"{e['source_node_name']}: world_transform {w} vs node TRS product {ref}")
    det = (w[0] * (w[5] * w[10] - w[9] * w[6]) - w[4] * (w[1] * w[10] - w[9] * w[2])
           + w[8] * (w[1] * w[6] - w[5] * w[2]))
    if abs(det - e["linear_determinant"]) > 1e-9 or det <= 0:
        bad.append(f"{e['source_node_name']}: determinant {e['linear_determinant']} vs {det}")
    pm = plain["meshes"][e["source_mesh_index"]]
    bm = baked["meshes"][e["output_mesh_index"]]
    if len(pm["primitives"]) != e["primitive_count"] or len(bm["primitives"]) != e["primitive_count"]:
        bad.append(f"{e['source_node_name']}: primitive_count")
    npos = nnrm = 0
    for pp, bp in zip(pm["primitives"], bm["primitives"]):
        if pp.get("material") != bp.get("material") or pp.get("indices") is None:
            bad.append(f"{e['source_node_name']}: material/indices")
        P = vec3s(plain, pbin, pp["attributes"]["POSITION"])
        Q = vec3s(baked, bbin, bp["attributes"]["POSITION"])
        npos += len(Q)
        if len(P) != len(Q) or any(max(abs(a - b) for a, b in zip(apply(ref, p), q)) > 1e-5
                                   for p, q in zip(P, Q)):
            bad.append(f"{e['source_node_name']}: baked positions differ from world positions")
        if "NORMAL" in bp["attributes"]:
            N = vec3s(baked, bbin, bp["attributes"]["NORMAL"])
            nnrm += len(N)
            if any(abs(math.sqrt(sum(c * c for c in n)) - 1) > 1e-5 for n in N):
                bad.append(f"{e['source_node_name']}: a baked normal is not unit length")
        if "TEXCOORD_0" not in bp["attributes"]:
            bad.append(f"{e['source_node_name']}: UVs lost")
    if npos != e["position_count"] or nnrm != e["normal_count"]:
        bad.append(f"{e['source_node_name']}: counts {npos}/{nnrm} vs {e}")
# The embedded texture stays on trim's base colour.
trim = [m for m in baked["materials"] if m["name"] == "trim"][0]
if "baseColorTexture" not in trim["pbrMetallicRoughness"]:
    bad.append("trim lost its base colour texture")
for b in bad[:10]:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
check "bake: evidence entries, identity nodes, world positions, unit normals" \
    'python3 "$tmp/bake_check.py" "$tmp" "$tmp/bake.json" "$tmp/plain.glb" "$tmp/baked.glb"'
"$bin" convert "$prop" -o "$tmp/baked2.glb" --bake-static-mesh-transforms >/dev/null
check "bake: twice, the same bytes" 'cmp -s "$tmp/baked.glb" "$tmp/baked2.glb"'

# Refusals keep an existing output as it was, permissions included.
printf 'keep me' >"$tmp/kept.glb"
chmod 640 "$tmp/kept.glb"
kept_intact() { [[ $(cat "$tmp/kept.glb") == "keep me" && $(stat -c %a "$tmp/kept.glb") == 640 ]]; }
refused() { # DESCRIPTION STDERR-REGEX ARGS...: exit 2, stdout empty, nothing written
    local what=$1 re=$2
    shift 2
    "$bin" convert "$@" -o "$tmp/kept.glb" >"$tmp/out" 2>"$tmp/err"
    local code=$?
    check "$what: exit 2, one stderr line, output kept" \
        '[[ $code == 2 && ! -s $tmp/out && $(wc -l <"$tmp/err") == 1 ]] && grep -Eq -- "$re" "$tmp/err" && kept_intact' ||
        sed 's/^/  /' "$tmp/err"
    "$bin" convert "$@" -o "$tmp/fresh.glb" >/dev/null 2>&1
    check "$what: no new file" '[[ ! -e $tmp/fresh.glb ]]'
}
refused "bake of a skinned, animated input" "clip 'mixamo\\.com'|skin" \
    "$a/mixamo-walk.fbx" --bake-static-mesh-transforms
refused "bake of an animated input" "clip 'Take 001' animates" \
    "$a/fbx-zup-metres.fbx" --bake-static-mesh-transforms
refused "bake with --animation-only" "--animation-only" \
    "$prop" --bake-static-mesh-transforms --animation-only
refused "a glTF input with --bake-static-mesh-transforms" "apply to FBX input" \
    "$a/walk.glb" --bake-static-mesh-transforms

# --animation-only on a glTF input: its skeleton and clips alone.
"$bin" convert "$a/walk.glb" -o "$tmp/walk-anim.glb" --animation-only >"$tmp/out" 2>"$tmp/err"
anim_code=$?
check "a glTF input with --animation-only: written without meshes or materials" \
    '[[ $anim_code == 0 && ! -s $tmp/err ]] && grep -q "0 mesh(es) / 0 position(s), 0 material(s)" "$tmp/out"'
"$bin" measure --format json "$a/walk.glb" >"$tmp/walk-full.json"
"$bin" measure --format json "$tmp/walk-anim.glb" >"$tmp/walk-anim.json"
check "a glTF input with --animation-only: the same clip measurements" \
    'python3 -c "import json,sys; c=[json.load(open(f))[\"files\"][0][\"measurements\"][\"clips\"] for f in sys.argv[1:]]; sys.exit(c[0]!=c[1])" "$tmp/walk-full.json" "$tmp/walk-anim.json"'

# ---- material texture recipes ----
mkdir -p "$tmp/r/textures" "$tmp/outside"
python3 - "$tmp/r/textures" "$tmp/outside" <<'PY'
import struct, sys, zlib
def png(w, h, px):
    rows = b"".join(b"\0" + bytes(c for x in range(w) for c in px(x, y)) for y in range(h))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))
open(f"{sys.argv[1]}/small.png", "wb").write(png(8, 8, lambda x, y: (x * 32, y * 32, 128, 255)))
open(f"{sys.argv[1]}/wide.png", "wb").write(png(64, 32, lambda x, y: (128 + x, 128 - y, 255, 255)))
open(f"{sys.argv[2]}/secret.png", "wb").write(png(8, 8, lambda x, y: (0, 0, 0, 255)))
PY
recipe() { # FILE, then the [[materials]] entries on stdin
    {
        printf 'schema_version = 1\nschema = "urn:animsmith:schema:material-texture-recipe:1"\n'
        printf 'texture_root = "textures"\nmax_dimension = 16\n'
        cat
    } >"$1"
}
entry() { printf '\n[[materials]]\nname = "%s"\nbase_color = "%s"\nnormal = "%s"\n' "$@"; }
{ entry surface small.png wide.png; entry trim wide.png small.png; } | recipe "$tmp/r/good.toml"
"$bin" convert "$prop" -o "$tmp/rec.glb" --material-texture-recipe "$tmp/r/good.toml" \
    --format json >"$tmp/rec.json" 2>"$tmp/err"
code=$?
check "recipe: exit 0, empty stderr" '[[ $code == 0 && ! -s $tmp/err ]]'
check "recipe: validator clean" 'validator_clean "$tmp/rec.glb"'
python3 - "$tmp" "$tmp/rec.json" "$tmp/rec.glb" "$tmp/r/textures" "$tmp/r/good.toml" <<'PY'
import json, struct, sys
sys.path.insert(0, sys.argv[1])
from glb import load, image_bytes
ev = json.load(open(sys.argv[2]))
doc, binc = load(sys.argv[3])
small = open(f"{sys.argv[4]}/small.png", "rb").read()
bad = []
def dims(b):
    return list(struct.unpack(">II", b[16:24])) if b[:8] == b"\x89PNG\r\n\x1a\n" else None
mats = {m["name"]: m for m in doc["materials"]}
got = {}
for name, slot, key in (("surface", "base_color", "baseColorTexture"), ("surface", "normal", "normalTexture"),
                        ("trim", "base_color", "baseColorTexture"), ("trim", "normal", "normalTexture")):
    m = mats[name]
    ref = m["pbrMetallicRoughness"].get(key) if key == "baseColorTexture" else m.get(key)
    if ref is None:
        bad.append(f"{name} has no {key}")
        continue
    got[(name, slot)] = image_bytes(doc, binc, ref["index"])
want = {("surface", "base_color"): "small", ("surface", "normal"): "wide",
        ("trim", "base_color"): "wide", ("trim", "normal"): "small"}
for k, which in want.items():
    b = got.get(k)
    if b is None:
        continue
    if which == "small" and b != small:
        bad.append(f"{k}: the 8x8 image's bytes changed")
    if which == "wide" and dims(b) != [16, 8]:
        bad.append(f"{k}: dimensions {dims(b)}, want [16, 8] PNG")
if ev["options"]["material_texture_recipe"] != sys.argv[5]:
    bad.append(f"options {ev['options']}")
r = ev.get("material_texture_recipe", {})
if r.get("schema") != "urn:animsmith:schema:material-texture-recipe:1" or r.get("max_dimension") != 16 \
        or r.get("texture_root") != "textures":
    bad.append(f"recipe record {dict((k, r.get(k)) for k in ('schema', 'max_dimension', 'texture_root'))}")
order = [("surface", "base_color"), ("surface", "normal"), ("trim", "base_color"), ("trim", "normal")]
em = r.get("emitted_textures", [])
if [(e["material_name"], e["slot"]) for e in em] != order:
    bad.append(f"emitted order {[(e['material_name'], e['slot']) for e in em]}")
for e in em:
    k = (e["material_name"], e["slot"])
    small_one = want[k] == "small"
    if e["resized"] != (not small_one) or e["dimensions"] != ([8, 8] if small_one else [16, 8]) \
            or e["mime"] != "image/png" or (k in got and e["emitted_bytes"] != len(got[k])):
        bad.append(f"emitted {e}")
co = r.get("consumed_inputs", [])
if [(c["material_name"], c["slot"], c["dimensions"]) for c in co] != \
        [(n, s, [8, 8] if want[(n, s)] == "small" else [64, 32]) for n, s in order]:
    bad.append(f"consumed {co}")
for b in bad[:10]:
    print("  " + b)
sys.exit(1 if bad else 0)
PY
check "recipe: the images on the right slots, 64x32 resized to 16x8, 8x8 bytes kept, evidence" '[[ $? == 0 ]]'
"$bin" convert "$prop" -o "$tmp/rec-bake.glb" --material-texture-recipe "$tmp/r/good.toml" \
    --bake-static-mesh-transforms >/dev/null 2>"$tmp/err"
check "recipe with the bake: exit 0" '[[ $? == 0 && ! -s $tmp/err ]]'

# Asset refusals: exit 1, nothing written.
{ entry surface small.png wide.png; entry trim wide.png small.png; entry missing small.png small.png; } |
    recipe "$tmp/r/extra.toml"
"$bin" convert "$prop" -o "$tmp/x.glb" --material-texture-recipe "$tmp/r/extra.toml" --format json \
    >"$tmp/out" 2>"$tmp/err"
code=$?
check "recipe naming an absent material, JSON: exit 1, one producer-refusal record, empty stderr" \
    '[[ $code == 1 && ! -s $tmp/err && ! -e $tmp/x.glb ]] && python3 -c "
import json, sys
d = json.loads(open(sys.argv[1]).read())
ok = (d[\"schema\"] == \"urn:animsmith:schema:producer-refusal:1\" and d[\"schema_version\"] == 1
      and d[\"command\"] == \"convert\" and d[\"outcome\"] == \"rejected\" and d[\"result\"] is None
      and d[\"rejection\"][\"kind\"] == \"asset-recipe-mismatch\" and \"missing\" in d[\"rejection\"][\"detail\"])
sys.exit(0 if ok else 1)" "$tmp/out"'
"$bin" convert "$prop" -o "$tmp/x.glb" --material-texture-recipe "$tmp/r/extra.toml" \
    >"$tmp/out" 2>"$tmp/err"
code=$?
check "recipe naming an absent material, text: exit 1, empty stdout, one stderr line with the kind" \
    '[[ $code == 1 && ! -s $tmp/out && $(wc -l <"$tmp/err") == 1 && ! -e $tmp/x.glb ]] && grep -q asset-recipe-mismatch "$tmp/err"'
entry surface small.png wide.png | recipe "$tmp/r/short.toml"
"$bin" convert "$prop" -o "$tmp/x.glb" --material-texture-recipe "$tmp/r/short.toml" >/dev/null 2>"$tmp/err"
code=$?
check "recipe missing \"trim\": exit 1, nothing written" \
    '[[ $code == 1 && ! -e $tmp/x.glb ]] && grep -q asset-recipe-mismatch "$tmp/err"'

# Operator errors: exit 2, one stderr line naming the recipe.
printf 'schema_version = 1\nschema = "urn:animsmith:schema:material-texture-recipe:1\n' >"$tmp/r/broken.toml"
{ entry surface small.png wide.png; entry trim wide.png small.png; printf 'colour = "red"\n'; } |
    recipe "$tmp/r/unknown.toml"
ln -s ../../outside/secret.png "$tmp/r/textures/link.png"
{ entry surface small.png wide.png; entry trim link.png small.png; } | recipe "$tmp/r/escape.toml"
declare -A why=([broken]="" [unknown]="colour" [escape]="outside texture_root")
for r in broken unknown escape; do
    "$bin" convert "$prop" -o "$tmp/x.glb" --material-texture-recipe "$tmp/r/$r.toml" >"$tmp/out" 2>"$tmp/err"
    code=$?
    check "recipe $r: exit 2, one stderr line naming the recipe, nothing written" \
        '[[ $code == 2 && ! -s $tmp/out && $(wc -l <"$tmp/err") == 1 && ! -e $tmp/x.glb ]] && grep -qF "$tmp/r/$r.toml" "$tmp/err" && grep -qF -- "${why[$r]}" "$tmp/err"' ||
        sed 's/^/  /' "$tmp/err"
done
refused "recipe with --animation-only" "--animation-only" \
    "$prop" --material-texture-recipe "$tmp/r/good.toml" --animation-only

# An output that is the recipe or one of its images (named .glb so only
# that check stands in the way).
cp "$tmp/r/good.toml" "$tmp/r/recipe.glb"
cp "$tmp/r/textures/small.png" "$tmp/r/textures/img.glb"
{ entry surface img.glb wide.png; entry trim wide.png small.png; } | recipe "$tmp/r/img.toml"
cp "$tmp/r/recipe.glb" "$tmp/recipe.before"
"$bin" convert "$prop" -o "$tmp/r/recipe.glb" --material-texture-recipe "$tmp/r/recipe.glb" \
    >/dev/null 2>"$tmp/err"
code=$?
check "output = the recipe: exit 2, recipe unchanged" \
    '[[ $code == 2 ]] && cmp -s "$tmp/r/recipe.glb" "$tmp/recipe.before" && grep -q "recipe" "$tmp/err"'
"$bin" convert "$prop" -o "$tmp/r/textures/img.glb" --material-texture-recipe "$tmp/r/img.toml" \
    >/dev/null 2>"$tmp/err"
code=$?
check "output = a recipe image: exit 2, image unchanged" \
    '[[ $code == 2 ]] && cmp -s "$tmp/r/textures/img.glb" "$tmp/r/textures/small.png" && grep -q "image" "$tmp/err"'
exit $fail
