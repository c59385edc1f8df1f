#!/usr/bin/env bash
# `convert` end to end on the FBX example assets: each converts to .glb and
# to .gltf with the documented summary line (exact counts, the dropped
# empty take said), the Khronos glTF-Validator finds no error in any output
# (skipped with a message when it is absent), `measure` of the FBX and of
# its GLB agree to 1e-6 on every number of every clip both have (the
# FBX's extra clips are exactly its takes with no track), the binary and
# ASCII Mixamo walk give the same GLB, `--format json` is the
# conversion-evidence:2 record with the summary's numbers,
# `--animation-only` keeps the clips and drops every mesh and material,
# and writing twice gives the same bytes.
set -u
. "$(dirname "$0")/lib/script_help.sh"
. "$(dirname "$0")/lib/gltf_validator.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
a=$src/examples/assets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
if gltf_validator_find; then validate=1; else validate=0; echo "note: $GLTF_VALIDATOR_MISSING"; fi
validator_clean() { # FILE: no error, or the validator is absent
    ((validate)) || return 0
    local errs
    errs=$(validator_errors "$1") || { echo "  validator failed on $1"; return 1; }
    [[ -z $errs ]] || { echo "$errs" | sed 's/^/  /' | head -5; return 1; }
}

# The expected summaries (what each fixture holds: docs/fixtures.md).
declare -A counts=(
    [mixamo-walk]="21 node(s), 1 clip(s), 1 mesh(es) / 384 position(s), 2 material(s)); dropped 1 clip(s) with no writable tracks"
    [mixamo-walk-ascii]="21 node(s), 1 clip(s), 1 mesh(es) / 384 position(s), 2 material(s)); dropped 1 clip(s) with no writable tracks"
    [fbx-zup-metres]="5 node(s), 1 clip(s), 1 mesh(es) / 24 position(s), 1 material(s))"
    [fbx-segment-scale]="6 node(s), 2 clip(s), 1 mesh(es) / 4 position(s), 1 material(s))"
    [fbx-static-prop]="4 node(s), 0 clip(s), 2 mesh(es) / 48 position(s), 2 material(s)); dropped 1 clip(s) with no writable tracks"
)
names=(mixamo-walk mixamo-walk-ascii fbx-zup-metres fbx-segment-scale fbx-static-prop)

# Measure JSON of two files: for every clip of B, A's clip of that name
# agrees to 1e-6 on every number (everything else equal); A's clips that B
# lacks are exactly the takes with track_count 0 in inspect JSON (INSPECT,
# or "" when A and B must hold the same clips).
cat >"$tmp/agree.py" <<'PY'
import json, math, sys
ma, mb, insp = sys.argv[1], sys.argv[2], sys.argv[3]
def clips(p):
    return json.load(open(p))["files"][0]["measurements"]["clips"]
ca, cb = clips(ma), clips(mb)
bad = []
def same(x, y, where):
    if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, (int, float)) \
            or not isinstance(y, (int, float)):
        if type(x) != type(y) and not (isinstance(x, (int, float)) and isinstance(y, (int, float))):
            bad.append(f"{where}: {x!r} vs {y!r}")
        elif isinstance(x, dict):
            if sorted(x) != sorted(y):
                bad.append(f"{where}: keys {sorted(set(x) ^ set(y))}")
            for k in x:
                if k in y:
                    same(x[k], y[k], f"{where}.{k}")
        elif isinstance(x, list):
            if len(x) != len(y):
                bad.append(f"{where}: {len(x)} vs {len(y)} items")
            for i, (u, v) in enumerate(zip(x, y)):
                same(u, v, f"{where}[{i}]")
        elif x != y:
            bad.append(f"{where}: {x!r} vs {y!r}")
        return
    if not (math.isfinite(x) and math.isfinite(y)) or abs(x - y) > 1e-6 * max(1.0, abs(x)):
        bad.append(f"{where}: {x!r} vs {y!r}")
missing = sorted(set(cb) - set(ca))
if missing:
    bad.append(f"clips only in the GLB: {missing}")
for name in cb:
    if name in ca:
        same(ca[name], cb[name], name)
extra = sorted(set(ca) - set(cb))
if insp:
    takes = json.load(open(insp))["fbx"]["takes"]
    empty = sorted(t["name"] for t in takes if t["track_count"] == 0)
    if extra != empty:
        bad.append(f"FBX-only clips {extra}, empty takes {empty}")
elif extra:
    bad.append(f"clips only in the first: {extra}")
if not cb and not extra and not ca:
    pass
for b in bad[:8]:
    print("  " + b)
sys.exit(1 if bad else 0)
PY

# The evidence record against the summary line and the options.
cat >"$tmp/evidence.py" <<'PY'
import json, re, sys
ev_path, summary, inp, out, anim_only = sys.argv[1:6]
ev = json.load(open(ev_path))
m = re.fullmatch(r"wrote (.*) \((\d+) node\(s\), (\d+) clip\(s\), (\d+) mesh\(es\) / (\d+) "
                 r"position\(s\), (\d+) material\(s\)\)(?:; dropped (\d+) clip\(s\) with no "
                 r"writable tracks)?", summary)
bad = []
if not m:
    bad.append(f"summary not parsed: {summary!r}")
else:
    want = dict(zip(["nodes", "animations", "meshes", "primitive_positions", "materials"],
                    map(int, m.groups()[1:6])))
    want["clips_without_writable_tracks"] = int(m.group(7) or 0)
    if ev.get("artifact") != want:
        bad.append(f"artifact {ev.get('artifact')} != summary {want}")
top = ["schema_version", "schema", "tool", "command", "input", "output", "options", "artifact"]
if list(ev) != top:
    bad.append(f"keys {list(ev)}")
if ev.get("schema_version") != 2 or ev.get("schema") != "urn:animsmith:schema:conversion-evidence:2":
    bad.append("schema identity")
tool = ev.get("tool", {})
if tool.get("name") != "animsmith" or not isinstance(tool.get("version"), str) or \
        sorted(tool.get("source", {})) != ["dirty", "revision"]:
    bad.append(f"tool {tool}")
if ev.get("command") != "convert" or ev.get("input") != inp or ev.get("output") != out:
    bad.append(f"command/input/output {ev.get('command')} {ev.get('input')} {ev.get('output')}")
want_opts = {"animation_only": anim_only == "1", "bake_static_mesh_transforms": False,
             "material_texture_recipe": None}
if ev.get("options") != want_opts:
    bad.append(f"options {ev.get('options')}")
if anim_only == "1" and (ev["artifact"]["meshes"] or ev["artifact"]["materials"]
                         or ev["artifact"]["primitive_positions"]):
    bad.append(f"--animation-only artifact {ev['artifact']}")
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
PY

for n in "${names[@]}"; do
    in=$a/$n.fbx
    "$bin" inspect "$in" --format json >"$tmp/$n.inspect.json" || { echo "FAIL inspect $n"; fail=1; }
    "$bin" measure "$in" --format json >"$tmp/$n.fbx.measure.json" ||
        { echo "FAIL measure $n.fbx"; fail=1; }
    for ext in glb gltf; do
        out=$tmp/$n.$ext
        line=$("$bin" convert "$in" -o "$out" 2>"$tmp/err")
        code=$?
        check "$n.$ext: exit 0, the summary line, empty stderr" \
            '[[ $code == 0 && $line == "wrote $out (${counts[$n]}" && ! -s $tmp/err ]]'
        check "$n.$ext: validator clean" 'validator_clean "$out"'
        "$bin" measure "$out" --format json >"$tmp/$n.$ext.measure.json"
        check "$n.$ext: measure agrees with the FBX's (extra FBX clips: its empty takes)" \
            'python3 "$tmp/agree.py" "$tmp/$n.fbx.measure.json" "$tmp/$n.$ext.measure.json" "$tmp/$n.inspect.json"'
        "$bin" convert "$in" -o "$tmp/again.$ext" >/dev/null
        check "$n.$ext: a second conversion writes the same bytes" 'cmp -s "$out" "$tmp/again.$ext"'
    done

    ev_out=$tmp/$n.ev.glb
    "$bin" convert "$in" -o "$ev_out" --format json >"$tmp/$n.ev.json" 2>"$tmp/err"
    code=$?
    check "$n: --format json: exit 0, conversion-evidence:2 with the summary's numbers" \
        '[[ $code == 0 && ! -s $tmp/err ]] && python3 "$tmp/evidence.py" "$tmp/$n.ev.json" "$line" "$in" "$ev_out" 0'
    check "$n: --format json writes the same GLB" 'cmp -s "$ev_out" "$tmp/$n.glb"'

    ao=$tmp/$n.anim.glb
    line=$("$bin" convert "$in" -o "$ao" --animation-only)
    "$bin" convert "$in" -o "$tmp/$n.anim-ev.glb" --animation-only --format json >"$tmp/$n.anim.json"
    check "$n: --animation-only evidence: 0 meshes, 0 materials, the summary's numbers" \
        'python3 "$tmp/evidence.py" "$tmp/$n.anim.json" "${line/$ao/$tmp/$n.anim-ev.glb}" "$in" "$tmp/$n.anim-ev.glb" 1'
    "$bin" inspect "$ao" --format json >"$tmp/$n.anim.inspect.json"
    check "$n: --animation-only output: inspect lists no material and no mesh instance" \
        'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(bool(d[\"materials\"] or d[\"mesh_instances\"]))" "$tmp/$n.anim.inspect.json"'
    check "$n: --animation-only output: validator clean" 'validator_clean "$ao"'
    "$bin" measure "$ao" --format json >"$tmp/$n.anim.measure.json"
    check "$n: --animation-only: the same clip measurements as the full conversion" \
        'python3 "$tmp/agree.py" "$tmp/$n.glb.measure.json" "$tmp/$n.anim.measure.json" ""'
    "$bin" convert "$in" -o "$tmp/again.glb" --animation-only >/dev/null
    check "$n: --animation-only twice: the same bytes" 'cmp -s "$ao" "$tmp/again.glb"'
done

# Binary and ASCII are one scene: the same GLB. The ASCII file spells the
# inverse bind matrices' negative zeros "-0"; a reader that takes that
# integer token as +0 gives bytes that differ only in the sign of zero,
# which the second check tells apart from any real difference.
cat >"$tmp/zero_sign.py" <<'PY'
import struct, sys
x, y = (open(p, "rb").read() for p in sys.argv[1:3])
if len(x) != len(y):
    sys.exit(1)
for i in range(0, len(x) - len(x) % 4, 4):
    if x[i:i + 4] != y[i:i + 4]:
        u, v = struct.unpack("<f", x[i:i + 4])[0], struct.unpack("<f", y[i:i + 4])[0]
        if not (u == 0.0 and v == 0.0):
            sys.exit(1)
sys.exit(0)
PY
check "binary and ASCII walk: GLBs equal up to the sign of zero" \
    'python3 "$tmp/zero_sign.py" "$tmp/mixamo-walk.glb" "$tmp/mixamo-walk-ascii.glb"'
check "binary and ASCII walk: byte-identical GLBs (ASCII \"-0\" read as -0.0)" \
    'cmp -s "$tmp/mixamo-walk.glb" "$tmp/mixamo-walk-ascii.glb"'
check "binary and ASCII walk: the same measurements" \
    'python3 "$tmp/agree.py" "$tmp/mixamo-walk.glb.measure.json" "$tmp/mixamo-walk-ascii.glb.measure.json" ""'
exit $fail
