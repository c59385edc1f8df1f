#!/usr/bin/env bash
# transform on every loadable glTF of the corpus, as a studio would run it:
# written back unchanged (GLB and .gltf) and with --reduce-keys 0.001, each
# output lints with exactly the input's findings (unchanged write) and the
# Khronos glTF-Validator reports no error code the input did not have.
# Skipped without the corpus; the validator part is skipped without node.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
corpus=${ANIMSMITH_CORPUS:-$src/../shared/corpus}/gltf
if [[ ! -d $corpus ]]; then
    echo "skipped: corpus not found at $corpus"
    exit 77
fi
# shellcheck source=lib/gltf_validator.sh
. "$(dirname "$0")/lib/gltf_validator.sh"
validate=1
gltf_validator_find || { echo "note: $GLTF_VALIDATOR_MISSING"; validate=0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
codes() { validator_errors "$1" | awk '{print $1}' | sort -u; }
checked=0
for f in "$corpus"/*.glb "$corpus"/*.gltf; do
    name=$(basename "$f")
    "$bin" inspect "$f" >/dev/null 2>&1 || continue # the reader refuses it
    checked=$((checked + 1))
    for out in same.glb same.gltf reduced.glb; do
        extra=()
        [[ $out == reduced.glb ]] && extra=(--reduce-keys 0.001)
        if ! "$bin" transform "$f" -o "$tmp/$out" "${extra[@]}" >"$tmp/log" 2>&1; then
            echo "FAIL $name -> $out: $(cat "$tmp/log")"
            fail=1
            continue
        fi
        if [[ $out != reduced.glb ]] &&
            ! diff <("$bin" lint "$f" | sed 1d) <("$bin" lint "$tmp/$out" | sed 1d) >"$tmp/d"; then
            echo "FAIL $name -> $out lints differently:"
            head -5 "$tmp/d"
            fail=1
        fi
        if [[ $validate == 1 ]]; then
            new=$(comm -13 <(codes "$f") <(codes "$tmp/$out"))
            if [[ -n $new ]]; then
                echo "FAIL $name -> $out: new validator errors: $new"
                fail=1
            fi
        fi
    done
    echo "ok   $name"
done
(( checked >= 20 )) || { echo "FAIL only $checked loadable corpus files"; fail=1; }
exit $fail
