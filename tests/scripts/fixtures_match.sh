#!/usr/bin/env bash
# Regenerates every example asset and contract and compares them with the
# committed copies under examples/ (any difference, missing or extra file
# fails). When the test corpus's reference files are present beside the
# checkout (../shared/corpus/peer or $ANIMSMITH_CORPUS/peer), also checks
# that the four fixed assets (clip, clip-dirty, walk, walk-dirty) equal
# them except for the 5-byte version in the generator string.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
BUILD_DIR=${1:?usage: fixtures_match.sh BUILD_DIR SOURCE_DIR}
SOURCE_DIR=${2:?usage: fixtures_match.sh BUILD_DIR SOURCE_DIR}
GEN="$BUILD_DIR/animsmith-fixturegen"
if [ ! -x "$GEN" ]; then
    echo "fixtures_match: $GEN not built" >&2
    exit 1
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$GEN" "$TMP/examples" || { echo "fixtures_match: generator failed" >&2; exit 1; }

fail=0
# Generated files must exist, committed, with identical bytes.
while IFS= read -r rel; do
    if [ ! -f "$SOURCE_DIR/examples/$rel" ]; then
        echo "fixtures_match: examples/$rel is generated but not committed" >&2
        fail=1
    elif ! cmp -s "$TMP/examples/$rel" "$SOURCE_DIR/examples/$rel"; then
        echo "fixtures_match: examples/$rel differs from the generator output" >&2
        fail=1
    fi
done < <(cd "$TMP/examples" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)

# Committed assets/contracts the generator does not produce.
while IFS= read -r rel; do
    if [ ! -f "$TMP/examples/$rel" ]; then
        echo "fixtures_match: examples/$rel is committed but not generated" >&2
        fail=1
    fi
done < <(cd "$SOURCE_DIR/examples" &&
         { find assets -maxdepth 1 -type f \( -name '*.glb' -o -name '*.fbx' \); find . -maxdepth 1 -type f -name '*.toml'; } |
         sed 's|^\./||' | LC_ALL=C sort)
[ "$fail" -eq 0 ] || exit 1
echo "fixtures_match: examples/ matches the generator output"

CORPUS=${ANIMSMITH_CORPUS:-"$SOURCE_DIR/../shared/corpus"}
REF="$CORPUS/peer"
if [ ! -d "$REF" ]; then
    echo "fixtures_match: no reference files at $REF; skipping the byte comparison with them"
    exit 0
fi
for f in clip clip-dirty walk walk-dirty; do
    ours="$TMP/examples/assets/$f.glb"
    theirs="$REF/$f.glb"
    if [ ! -f "$theirs" ]; then
        echo "fixtures_match: $theirs missing" >&2
        exit 1
    fi
    if [ "$(stat -c %s "$ours")" != "$(stat -c %s "$theirs")" ]; then
        echo "fixtures_match: $f.glb size differs from the reference file's" >&2
        exit 1
    fi
    # Mask the version after "animsmith " in both and compare the rest.
    if ! cmp -s <(sed 's/"animsmith [0-9][0-9.]*"/"animsmith X.Y.Z"/' "$ours") \
                <(sed 's/"animsmith [0-9][0-9.]*"/"animsmith X.Y.Z"/' "$theirs"); then
        echo "fixtures_match: $f.glb differs from the reference file beyond the version string" >&2
        exit 1
    fi
    n=$(cmp -l "$ours" "$theirs" | wc -l)
    if [ "$n" -gt 5 ]; then
        echo "fixtures_match: $f.glb differs from the reference file in $n bytes (> 5)" >&2
        exit 1
    fi
done
echo "fixtures_match: fixed assets equal the reference files except the version bytes"
