#!/usr/bin/env bash
# A character end to end over `animsmith model serve --store`: skeleton,
# polygon-mesh body, bind weights with a locked group, a pose, an IK
# solve, baked walk and idle clips, a blend, a morph target keyed in walk
# with footstep events; published as a Character, reopened by alias and
# compiled again to the same bytes (tests/scripts/lib/model_character.py).
# The compiled GLB then passes the Khronos glTF-Validator with no error
# (skipped where node is missing) and `animsmith lint` under a contract
# that declares walk a loop, with exit 0 and no error finding.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
python3 "$src/tests/scripts/lib/model_character.py" "$bin" "$tmp" || fail=1
[[ -s $tmp/character.glb ]] || { echo "FAIL no GLB was compiled"; exit 1; }
cat >"$tmp/animsmith.toml" <<'TOML'
[clips.walk]
loop = true
TOML
(cd "$tmp" && "$bin" --config animsmith.toml lint character.glb --format json >lint.json 2>lint.txt)
code=$?
errors=$(python3 "$src/tests/scripts/lib/lint_errors.py" "$tmp/lint.json" 2>&1)
if [[ $code != 0 || -n $errors ]]; then
    echo "FAIL animsmith lint (walk declared a loop) exited $code: $errors"
    cat "$tmp/lint.txt"
    head -c 3000 "$tmp/lint.json"
    fail=1
else
    echo "ok   animsmith lint with walk declared a loop: exit 0, no error finding"
fi
# shellcheck source=lib/gltf_validator.sh
. "$src/tests/scripts/lib/gltf_validator.sh"
validator_expect_clean "$tmp/character.glb" "the character" || fail=1
exit $fail
