#!/usr/bin/env bash
# A skinned, textured and animated model built with `animsmith model apply`
# (a body and an arm through it, with a projected UV, a painted texture, a three-joint skeleton
# with an explicit null root parent, automatic weights and a two-channel
# clip) compiles to a GLB that the Khronos glTF-Validator accepts with no
# error, that `animsmith inspect` reads back with its skin and clip, and
# that `animsmith lint` accepts; the static preview of the same journal
# passes too and carries no skin or animation. The validator step is
# skipped (not the rest) where node is missing.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
# shellcheck source=lib/expect_exit.sh
. "$src/tests/scripts/lib/expect_exit.sh"
cat >mesh.json <<'JSON'
[{"op":"cube","object":"body","size":[0.6,1.0,0.4]},
 {"op":"cylinder","object":"arm","radius":0.08,"height":0.8,"segments":8},
 {"op":"project_uv","object":"body","faces":["1","2"],"axis":2,"scale":[1,1],"offset":[0.5,0.5]},
 {"op":"material","material":0,"color":[0.8,0.8,0.8]},
 {"op":"texture_solid","material":0,"width":16,"height":16,"color":[40,90,200]},
 {"op":"paint_texture","material":0,"center":[0.5,0.5],"radius":0.25,"color":[250,200,10]}]
JSON
cat >rig.json <<'JSON'
[{"op":"skeleton","joints":[
   {"name":"hips","parent":null,"translation":[0,-0.5,0]},
   {"name":"chest","parent":0,"translation":[0,0.8,0]},
   {"name":"shoulder","parent":1,"translation":[0.35,0.1,0]}]},
 {"op":"auto_weights","object":"body"},
 {"op":"auto_weights","object":"arm"},
 {"op":"clip","name":"wave","channels":[
   {"joint":2,"path":"rotation","keys":[
     {"time":0,"value":[0,0,0,1]},
     {"time":0.5,"value":[0,0,0.3826834323650898,0.9238795325112867]},
     {"time":1,"value":[0,0,0,1]}]},
   {"joint":0,"path":"translation","keys":[
     {"time":0,"value":[0,-0.5,0,0]},
     {"time":1,"value":[0,-0.5,0,0]}]}]}]
JSON
expect "mesh batch" 0 "$bin" model apply robot.json mesh.json --request-id mesh
expect "rig batch" 0 "$bin" model apply robot.json rig.json --request-id rig
[[ $fail == 0 ]] || exit 1
expect "joints page" 0 "$bin" model inspect robot.json --domain joints
grep -q '"parent":null' out || { echo "FAIL the root joint reads back with a null parent: $(cat out)"; fail=1; }
expect "compile" 0 "$bin" model compile robot.json -o robot.glb
expect "preview compile" 0 "$bin" model compile robot.json -o preview.glb --preview
[[ -s robot.glb && -s preview.glb ]] || { echo "FAIL compile wrote no GLB"; exit 1; }
expect "inspect of the compiled GLB" 0 "$bin" inspect robot.glb --format json
grep -q '"wave"' out || { echo "FAIL inspect does not list the clip: $(head -c 400 out)"; fail=1; }
grep -q '"shoulder"' out || { echo "FAIL inspect does not list the joints: $(head -c 400 out)"; fail=1; }
expect "lint of the compiled GLB" 0 "$bin" lint robot.glb
expect "lint of the preview" 0 "$bin" lint preview.glb
# The preview is static: no skin, no animation.
if command -v python3 >/dev/null; then
    python3 - preview.glb robot.glb <<'PY' || fail=1
import json, struct, sys
def doc(path):
    b = open(path, "rb").read()
    n = struct.unpack_from("<I", b, 12)[0]
    return json.loads(b[20:20 + n])
p, r = doc(sys.argv[1]), doc(sys.argv[2])
ok = True
if p.get("skins") or p.get("animations"):
    print("FAIL the preview carries a skin or an animation"); ok = False
if len(r.get("skins", [])) != 1 or len(r.get("animations", [])) != 1:
    print("FAIL the compiled model has not one skin and one animation"); ok = False
if not r.get("textures") or not r.get("images"):
    print("FAIL the compiled model carries no texture"); ok = False
sys.exit(0 if ok else 1)
PY
fi
# shellcheck source=lib/gltf_validator.sh
. "$src/tests/scripts/lib/gltf_validator.sh"
if gltf_validator_find; then
    for f in robot.glb preview.glb; do
        if ! errors=$(validator_errors "$tmp/$f"); then
            echo "FAIL the validator could not run on $f"
            fail=1
        elif [[ -n $(sed '/^$/d' <<<"$errors") ]]; then
            echo "FAIL $f has validator errors:"
            echo "$errors"
            fail=1
        fi
    done
else
    echo "note: $GLTF_VALIDATOR_MISSING"
fi
[[ $fail == 0 ]] && echo "the skinned, textured, animated model compiles clean and passes lint and the validator"
exit $fail
