#!/usr/bin/env bash
# Every real glTF/GLB in ../shared/corpus lints and measures (text and
# JSON) without crashing: exit 0 or 1 for lint, 0 for measure, or a one-line
# "animsmith: ..." refusal with exit 2 (the reader's refusals). Under the
# sanitizer build a leak or UB report fails the test too.
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
check() { # command label expected-ok-codes...
    local label=$1; shift
    local ok=$1; shift
    local err code
    err=$(timeout 120 "$@" 2>&1 >/dev/null)
    code=$?
    if [[ " $ok " == *" $code "* ]]; then
        return
    fi
    if [[ $code == 2 && $err == "animsmith: "* && $(printf '%s\n' "$err" | wc -l) -eq 1 ]]; then
        return
    fi
    echo "FAIL $label: exit $code"
    printf '%s\n' "$err" | head -20
    fail=1
}
for f in "$corpus"/gltf/*.glb "$corpus"/gltf/*.gltf; do
    [[ -f $f ]] || continue
    count=$((count + 1))
    check "lint $f" "0 1" "$bin" lint --jobs 1 "$f"
    check "lint --format json $f" "0 1" "$bin" lint --jobs 1 --format json "$f"
    check "measure --format text $f" "0" "$bin" measure --jobs 1 --format text "$f"
done
# All at once, every core: the same files in one run.
check "lint all" "0 1 2" "$bin" lint "$corpus"/gltf/*.gl*
echo "linted and measured $count files"
exit $fail
