#!/usr/bin/env bash
# The model engine over `animsmith model serve` (JSON-RPC 2.0 on stdio):
# a small robot is built batch by batch (body cube, head cube moved up, an
# extruded neck, an inset visor, an arm cylinder mirrored to the other
# side, two materials, a solid and a painted texture), every inspect
# domain is paged to the end by next_offset with every reply within
# 12 KiB, undo and redo restore the content hash while the generation
# advances, a retried request id is replayed, a stale head is refused,
# and the compiled GLB passes the Khronos glTF-Validator with no error and
# `animsmith lint` with exit 0. Needs python3; the validator step is
# skipped (not the rest) where node is missing.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
python3 "$src/tests/scripts/lib/model_robot.py" "$bin" "$tmp/robot.glb" || fail=1
if [[ -s $tmp/robot.glb ]]; then
    (cd "$tmp" && "$bin" lint robot.glb --format json >"$tmp/lint.json" 2>"$tmp/lint.txt")
    code=$?
    errors=$(python3 "$src/tests/scripts/lib/lint_errors.py" "$tmp/lint.json" 2>&1)
    if [[ $code != 0 || -n $errors ]]; then
        cat "$tmp/lint.json" >>"$tmp/lint.txt"
        echo "FAIL animsmith lint of the compiled robot exited $code:"
        cat "$tmp/lint.txt"
        fail=1
    else
        echo "ok   animsmith lint of the compiled robot: exit 0"
    fi
    # shellcheck source=lib/gltf_validator.sh
    . "$src/tests/scripts/lib/gltf_validator.sh"
    validator_expect_clean "$tmp/robot.glb" "the compiled robot" || fail=1
else
    echo "FAIL no GLB was compiled"
    fail=1
fi
exit $fail
