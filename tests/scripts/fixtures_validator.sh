#!/usr/bin/env bash
# Every glTF we write passes the Khronos glTF-Validator: the example assets
# the fixture generator writes have no validator error, except the one
# clip-dirty.glb exists to carry (its non-unit rotation key).
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
src=$2
# shellcheck source=lib/gltf_validator.sh
. "$(dirname "$0")/lib/gltf_validator.sh"
if ! gltf_validator_find; then
    echo "skipped: $GLTF_VALIDATOR_MISSING"
    exit 77
fi
fail=0
for f in "$src"/examples/assets/*.glb; do
    if ! errors=$(validator_errors "$f"); then
        echo "FAIL $f: the validator could not run"
        fail=1
        continue
    fi
    errors=$(sed '/^$/d' <<<"$errors")
    [[ $(basename "$f") == clip-dirty.glb ]] && errors=$(grep -v 'NON_NORMALIZED_QUATERNION ' <<<"$errors")
    if [[ -n $errors ]]; then
        echo "FAIL $(basename "$f"):"
        echo "$errors"
        fail=1
    else
        echo "ok   $(basename "$f")"
    fi
done
exit $fail
