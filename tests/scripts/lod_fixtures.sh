#!/usr/bin/env bash
# `animsmith lod` and `mesh-quality residual` on the generated fixtures of
# tests/fixtures/meshq: generate.py writes the committed bytes again; the
# fixtures and every LOD written from the grid pass the Khronos
# glTF-Validator (a note where node is missing); each written LOD reads
# back, under `mesh-quality residual --envelope-from-clips`, the residual
# lod printed for it; and a run that fails, whether over its bound (exit 1)
# or by an operator error (exit 2), leaves an existing output byte for
# byte as it was.
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
fx=$src/tests/fixtures/meshq

if command -v python3 >/dev/null; then
    mkdir gen
    python3 "$fx/generate.py" gen || { echo "FAIL generate.py"; fail=1; }
    for f in gen/*; do
        cmp -s "$f" "$fx/$(basename "$f")" ||
            { echo "FAIL $(basename "$f") differs from what generate.py writes"; fail=1; }
    done
    for f in "$fx"/*; do
        [[ $(basename "$f") == generate.py || -f gen/$(basename "$f") ]] ||
            { echo "FAIL $(basename "$f") is committed but not generated"; fail=1; }
    done
    [[ $fail == 0 ]] && echo "ok   generate.py writes the committed fixtures"
else
    echo "note: python3 not found, the fixtures were not regenerated"
fi

for f in grid.glb grid.gltf grid-textured.glb coarse.glb static.glb; do
    validator_expect_clean "$fx/$f" "$f" || fail=1
done

# value KEY FILE: the first number of "KEY": in a JSON file.
value() { grep -o "\"$1\": *[-0-9.e+]*" "$2" | head -1 | sed 's/.*: *//'; }

# lod_reads_back LABEL OUT LOD.json: the validator passes OUT and the
# residual measured on it is the one lod printed.
lod_reads_back() {
    local label=$1 o=$2 j=$3 printed measured
    validator_expect_clean "$o" "$label" || fail=1
    printed=$(value residual "$j")
    "$bin" mesh-quality residual "$fx/grid.glb" "$o" --envelope-from-clips --format json \
        >mq.json 2>mq.err || { echo "FAIL $label: mesh-quality residual: $(cat mq.err)"; fail=1; }
    measured=$(value value mq.json)
    if [[ -z $printed || $printed != "$measured" ]]; then
        echo "FAIL $label: lod printed '$printed', mesh-quality residual reads '$measured'"
        fail=1
    else
        echo "ok   $label: lod's residual $printed m reads back"
    fi
}

expect "lod search" 0 "$bin" lod "$fx/grid.glb" -o lod.glb --max-residual 0.01 --format json
cp out lod.json
[[ -s lod.glb ]] && lod_reads_back "the certified LOD" lod.glb lod.json
expect "lod ratio" 0 "$bin" lod "$fx/grid.glb" -o half.glb --ratio 0.5 --seams meshopt \
    --format json
cp out half.json
[[ -s half.glb ]] && lod_reads_back "the plain half" half.glb half.json

# An existing output survives every failed run. The first replaces it
# with the certified LOD, so the file is a real GLB, not a placeholder.
cp lod.glb kept.glb
keep() {
    local what=$1 code=$2
    shift 2
    expect "$what" "$code" "$bin" "$@" -o kept.glb
    cmp -s kept.glb lod.glb || { echo "FAIL $what: the existing output was changed"; fail=1; }
}
keep "over the bound" 1 lod "$fx/grid.glb" --ratio 0.5 --max-residual 0.001
grep -q "^nothing written$" "$tmp/out" || { echo "FAIL over the bound: no 'nothing written'"; fail=1; }
keep "no skinned mesh" 2 lod "$fx/static.glb" --max-residual 0.01
keep "unknown mesh" 2 lod "$fx/grid.glb" --max-residual 0.01 --mesh Body
keep "bad seams" 2 lod "$fx/grid.glb" --ratio 0.5 --seams glue
keep "unreadable source" 2 lod "$fx/envelope.toml" --max-residual 0.01
# The source itself as the output, under another spelling: refused before
# anything is measured, so the certificate never outlives its source.
keep "output is the source" 2 lod ./kept.glb --ratio 0.5
grep -q "the output is the source file" "$tmp/err" ||
    { echo "FAIL output is the source: no refusal naming it"; fail=1; }
[[ $fail == 0 ]] && echo "ok   every failed lod left the existing output as it was"
exit $fail
