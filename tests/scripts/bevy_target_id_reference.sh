#!/usr/bin/env bash
# The expected values of the BLAKE3 and Bevy target-id unit tests come from
# an independent implementation: tests/tools/blake3_reference.py (its own
# BLAKE3, recursive where the C one is incremental). This re-runs it: its
# self-check against the official BLAKE3 vectors, then every target id the
# unit test expects, recomputed and looked up in tests/unit/test_bevy_target_id.c.
# Skipped (77) without python3.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
command -v python3 >/dev/null || { echo "python3 not found; skipped"; exit 77; }
ref=$src/tests/tools/blake3_reference.py
unit=$src/tests/unit/test_bevy_target_id.c
fail=0
python3 "$ref" check || fail=1
# One line per path: the width, then the names.
while read -r bits names; do
    # shellcheck disable=SC2086 # the names are separate arguments
    id=$(python3 "$ref" target-id "$bits" $names)
    if ! grep -q "\"$id\"" "$unit"; then
        echo "target-id $bits $names = $id, which $unit does not expect"
        fail=1
    fi
done <<'EOF'
32
64
32 Root
64 Root
32 Root Hips GltfNode7
64 Root Hips GltfNode7
32 ab c
64 ab c
32 a bc
64 a bc
32 Armature Hips Spine
64 Armature Hips Spine
EOF
long=$(printf 'x%.0s' $(seq 1024))
id=$(python3 "$ref" target-id 64 "$long")
grep -q "\"$id\"" "$unit" || { echo "the 1,024-byte name's id $id is not expected"; fail=1; }
[[ $fail == 0 ]] && echo "ok   the unit test's target ids match the reference implementation"
exit $fail
