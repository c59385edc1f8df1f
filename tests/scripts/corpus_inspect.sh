#!/usr/bin/env bash
# Every real glTF/GLB in ../shared/corpus either inspects (exit 0) or is
# refused with one "animsmith: ..." line (exit 2); nothing crashes or hangs.
# Under the sanitizer build a leak or UB report fails the test too.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$1/animsmith
src=$2
corpus=${ANIMSMITH_CORPUS:-$src/../shared/corpus}
if [[ ! -d $corpus/gltf ]]; then
    echo "skipped: corpus not found at $corpus"
    exit 77
fi
fail=0
count=0
for f in "$corpus"/gltf/*.glb "$corpus"/gltf/*.gltf /usr/share/assimp/models/glTF2/*/*.gl[tb]*; do
    [[ -f $f ]] || continue
    count=$((count + 1))
    out=$(timeout 60 "$bin" inspect "$f" 2>&1 >/dev/null)
    code=$?
    case $code in
        0) ;;
        2)
            lines=$(printf '%s\n' "$out" | wc -l)
            if [[ $lines -ne 1 || $out != "animsmith: "* ]]; then
                echo "FAIL $f: refusal is not one 'animsmith: ' line: $out"
                fail=1
            fi
            ;;
        *)
            echo "FAIL $f: exit $code"
            printf '%s\n' "$out" | head -20
            fail=1
            ;;
    esac
done
echo "inspected $count files"
exit $fail
