#!/usr/bin/env bash
# `animsmith lod` on a skinned sphere authored with `animsmith model`: the
# certified LOD passes the Khronos glTF-Validator, lints like its source
# (same exit, same findings), and `mesh-quality residual --envelope-from-
# clips` on it reads the value lod certified; a plain --ratio candidate
# over its bound is not written and an existing output is left untouched;
# operator errors exit 2. Then the same on corpus characters (skipped
# without the corpus). The validator steps are notes where node is missing.
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
# shellcheck source=lib/gltf_validator.sh
. "$src/tests/scripts/lib/gltf_validator.sh"
cat >mesh.json <<'JSON'
[{"op":"sphere","object":"body","radius":0.5,"segments":48,"rings":32},
 {"op":"material","material":0,"color":[0.8,0.8,0.8]}]
JSON
cat >rig.json <<'JSON'
[{"op":"skeleton","joints":[
   {"name":"hips","parent":null,"translation":[0,-0.5,0]},
   {"name":"chest","parent":0,"translation":[0,0.5,0]},
   {"name":"head","parent":1,"translation":[0,0.4,0]}]},
 {"op":"auto_weights","object":"body"},
 {"op":"clip","name":"sway","channels":[
   {"joint":1,"path":"rotation","keys":[
     {"time":0,"value":[0,0,0,1]},
     {"time":0.5,"value":[0,0,0.0871557427476582,0.9961946980917455]},
     {"time":1,"value":[0,0,0,1]}]}]}]
JSON
expect "mesh batch" 0 "$bin" model apply ball.json mesh.json --request-id mesh
expect "rig batch" 0 "$bin" model apply ball.json rig.json --request-id rig
expect "compile" 0 "$bin" model compile ball.json -o ball.glb
[[ -s ball.glb ]] || { echo "FAIL compile wrote no GLB"; exit 1; }

# value KEY FILE: the first number of "KEY": in a JSON file.
value() { grep -o "\"$1\": *[-0-9.e+]*" "$2" | head -1 | sed 's/.*: *//'; }

# check_lod SRC OUT JSON BOUND LABEL: validator, lint, residual agree.
check_lod() {
    local s=$1 o=$2 j=$3 b=$4 label=$5 a c
    validator_expect_clean "$o" "$label" || fail=1
    "$bin" lint "$s" >lint_src.txt 2>&1
    a=$?
    "$bin" lint "$o" >lint_out.txt 2>&1
    c=$?
    [[ $a == "$c" ]] || { echo "FAIL $label: lint exits $c, the source $a"; fail=1; }
    # Findings name the file; compare them without it.
    if ! diff <(sed "s#$s#FILE#g" lint_src.txt | grep -v '^wrote\|elapsed') \
        <(sed "s#$o#FILE#g" lint_out.txt | grep -v '^wrote\|elapsed') >lint.diff; then
        echo "FAIL $label: lint findings differ from the source's:"
        head -20 lint.diff
        fail=1
    fi
    local certified measured
    certified=$(value residual "$j")
    "$bin" mesh-quality residual "$s" "$o" --envelope-from-clips --max-residual "$b" \
        --format json >mq.json 2>mq.err
    c=$?
    [[ $c == 0 ]] || { echo "FAIL $label: mesh-quality residual exits $c: $(cat mq.err)"; fail=1; }
    measured=$(value value mq.json)
    if [[ -z $certified || $certified != "$measured" ]]; then
        echo "FAIL $label: lod certified '$certified', mesh-quality residual reads '$measured'"
        fail=1
    else
        echo "ok   $label: certified $certified m, mesh-quality residual agrees"
    fi
}

expect "lod search" 0 "$bin" lod ball.glb -o lod.glb --max-residual 0.01 --format json
cp out lod.json
grep -q '"schema": "animsmith-lod/1"' lod.json || { echo "FAIL no animsmith-lod/1 schema"; fail=1; }
grep -q '"certified": true' lod.json || { echo "FAIL the search did not certify"; fail=1; }
src_t=$(value sourceTriangles lod.json)
out_t=$(value triangles lod.json)
[[ -n $out_t && $out_t -lt $src_t ]] || { echo "FAIL no reduction: $src_t -> $out_t"; fail=1; }
grep -q '"seamVerticesDropped": 0' lod.json || { echo "FAIL a locked seam vertex was dropped"; fail=1; }
[[ -s lod.glb ]] && check_lod ball.glb lod.glb lod.json 0.01 "the certified LOD"

expect "lod text" 0 "$bin" lod ball.glb -o lod2.glb --max-residual 0.01
grep -q "^mesh 'body': 2,976 -> .* triangles, certified residual .* m <= 0.01 m (clips: sway)$" out ||
    { echo "FAIL text line: $(cat out)"; fail=1; }
grep -q "^wrote lod2.glb (.* bytes)$" out || { echo "FAIL no wrote line: $(cat out)"; fail=1; }
cmp -s lod.glb lod2.glb || { echo "FAIL two runs wrote different bytes"; fail=1; }

# A plain half over its bound: exit 1, the existing file untouched.
echo keep >kept.glb
expect "ratio over the bound" 1 "$bin" lod ball.glb -o kept.glb --ratio 0.5 --max-residual 0.001
[[ $(cat kept.glb) == keep ]] || { echo "FAIL a refused LOD replaced the output"; fail=1; }
grep -q "nothing written" out || { echo "FAIL no 'nothing written': $(cat out)"; fail=1; }
expect "ratio" 0 "$bin" lod ball.glb -o half.glb --ratio 0.5 --seams meshopt --format json
cp out half.json
check_lod ball.glb half.glb half.json 1000 "the plain half"

expect "no -o" 2 "$bin" lod ball.glb --max-residual 0.01
expect "no bound" 2 "$bin" lod ball.glb -o x.glb
expect "gltf output" 2 "$bin" lod ball.glb -o x.gltf --max-residual 0.01
expect "ratio 0" 2 "$bin" lod ball.glb -o x.glb --ratio 0
expect "bad seams" 2 "$bin" lod ball.glb -o x.glb --ratio 0.5 --seams glue
expect "unknown mesh" 2 "$bin" lod ball.glb -o kept.glb --max-residual 0.01 --mesh nope
[[ $(cat kept.glb) == keep ]] || { echo "FAIL an operator error replaced the output"; fail=1; }

corpus=${ANIMSMITH_CORPUS:-$src/../shared/corpus}
if [[ -f $corpus/gltf/CesiumMan.glb ]]; then
    for n in CesiumMan Fox; do
        f=$corpus/gltf/$n.glb
        [[ -f $f ]] || continue
        expect "$n lod" 0 "$bin" lod "$f" -o "$n.glb" --max-residual 0.005 --format json
        cp out "$n.json"
        [[ -s $n.glb ]] && check_lod "$f" "$n.glb" "$n.json" 0.005 "$n LOD"
        expect "$n half" 0 "$bin" lod "$f" -o "$n.half.glb" --ratio 0.5 --seams meshopt \
            --format json
        cp out "$n.half.json"
        [[ -s $n.half.glb ]] && check_lod "$f" "$n.half.glb" "$n.half.json" 1000 "$n plain half"
    done
else
    echo "skipped: corpus not found at $corpus (the corpus part only)"
fi
exit $fail
