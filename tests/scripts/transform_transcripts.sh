#!/usr/bin/env bash
# transform transcripts (tests/golden/transform.transcript): every step on
# the example assets, each followed by the diff that shows what it moved
# (and only that), the refusals, and the gait anchor's refusal of a clip
# that travels. Runs in a temporary directory with copies of the example
# assets, so outputs have short relative names and the transcript reads
# like docs/transform.md. Also: a failed transform leaves an existing
# output (bytes and mode) untouched, the same input and flags give the same
# bytes, outputs may not be the input or the config, and every written
# file passes the Khronos glTF-Validator.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src"/examples/assets/*.glb "$src"/examples/walk.animsmith.toml "$tmp"/
cd "$tmp" || exit 1
fail=0

run() {
    echo "\$ animsmith $*"
    "$bin" "$@" 2>&1
    echo "[exit $?]"
}
{
    run transform clip.glb -o sliced.glb --slice 0.5:1.0
    run diff clip.glb sliced.glb
    run transform clip.glb -o held.glb --hold-extend 0.5
    run diff clip.glb held.glb
    run transform walk-scaled.glb -o compact.glb --prune-constant-tracks
    run lint compact.glb
    run diff walk-scaled.glb compact.glb
    run transform walk.glb -o open.glb --drop-duplicate-loop-endpoint
    run --config walk.animsmith.toml transform walk.glb -o open.glb --drop-duplicate-loop-endpoint
    run diff walk.glb open.glb
    run --config walk.animsmith.toml transform walk.glb -o anchored.glb \
        --drop-duplicate-loop-endpoint --gait-anchor --fps 32
    run diff open.glb anchored.glb
    run transform walk-travel.glb -o travel.glb --gait-anchor --fps 32
    run transform walk.glb -o dense.glb --resample 60
    run diff walk.glb dense.glb
    run transform walk-dirty.glb -o small.glb --reduce-keys 0.001
    run diff walk-dirty.glb small.glb
    run transform run-ring.glb -o ring.glb --clip run_left --slice 0:0.5
    run diff run-ring.glb ring.glb
    run transform run-ring.glb -o ring.glb --clip run_sideways
    run transform clip.glb -o clip.glb --slice 0:0.5
    run --config walk.animsmith.toml transform walk.glb -o walk.animsmith.toml --resample 30
    run transform clip.glb -o x.glb --slice 0.5
    run transform clip.glb -o x.glb --slice a:1
    run transform clip.glb -o x.glb --slice 1:0.5
    run transform clip.glb -o x.glb --hold-extend 1 --drop-duplicate-loop-endpoint
    run transform clip.glb -o x.glb --resample 0
    run transform clip.glb -o x.glb --hold-extend 0
    run transform clip.glb -o x.glb --hold-extend 1e-9
    run transform clip.glb -o x.glb --slice 0.1:0.11
    run transform clip.glb --slice 0:1
} >transcript 2>&1
[[ -n ${TRANSFORM_GOLDEN_OUT:-} ]] && cp transcript "$TRANSFORM_GOLDEN_OUT"
if ! diff -u "$src/tests/golden/transform.transcript" transcript; then
    echo "FAIL transcript differs from tests/golden/transform.transcript"
    fail=1
else
    echo "ok   transcript"
fi

# A refusal leaves the existing output as it was, bytes and mode.
printf 'keep' >kept.glb
chmod 640 kept.glb
"$bin" transform walk-travel.glb -o kept.glb --gait-anchor --fps 32 2>/dev/null
if [[ $? == 2 && $(cat kept.glb) == keep && $(stat -c %a kept.glb) == 640 ]]; then
    echo "ok   refusal leaves the output untouched"
else
    echo "FAIL a refused transform changed kept.glb"
    fail=1
fi
# The input is never changed by a refused alias.
cp clip.glb before.glb
"$bin" transform clip.glb -o ./clip.glb --slice 0:0.5 2>/dev/null
if cmp -s clip.glb before.glb; then echo "ok   alias refusal"; else echo "FAIL input changed"; fail=1; fi

# Deterministic: same input and flags, same bytes (GLB and .gltf).
for ext in glb gltf; do
    "$bin" transform walk-scaled.glb -o "a.$ext" --prune-constant-tracks --reduce-keys 0.001 >/dev/null &&
        "$bin" transform walk-scaled.glb -o "b.$ext" --prune-constant-tracks --reduce-keys 0.001 >/dev/null
    if cmp -s "a.$ext" "b.$ext"; then echo "ok   deterministic .$ext"; else echo "FAIL .$ext differs between runs"; fail=1; fi
done
# A .gltf output lints like its GLB twin.
if diff <("$bin" lint a.glb | sed 1d) <("$bin" lint a.gltf | sed 1d) >/dev/null; then
    echo "ok   .gltf lints like .glb"
else
    echo "FAIL .gltf and .glb outputs lint differently"
    fail=1
fi
# Every file written above passes the Khronos glTF-Validator.
# shellcheck source=lib/gltf_validator.sh
. "$here/lib/gltf_validator.sh"
if gltf_validator_find; then
    for f in sliced held compact open anchored dense small ring a.glb a.gltf; do
        [[ $f == *.* ]] || f=$f.glb
        errors=$(validator_errors "$f") || { echo "FAIL validator could not run on $f"; fail=1; continue; }
        if [[ -n $(sed '/^$/d' <<<"$errors") ]]; then
            echo "FAIL $f has validator errors: $errors"
            fail=1
        fi
    done
    echo "ok   validator on every written file"
else
    echo "note: $GLTF_VALIDATOR_MISSING"
fi
exit $fail
