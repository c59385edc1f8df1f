#!/usr/bin/env bash
# Output with many workers is byte-identical to a one-worker run, in
# argument order, for every format; a failing file leaves stdout empty
# however the work was split, and is named on stderr.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$1/animsmith
src=$2
files=("$src"/examples/assets/*.glb)
corpus=${ANIMSMITH_CORPUS:-$src/../shared/corpus}
[[ -d $corpus/gltf ]] && files+=("$corpus"/gltf/Fox.glb "$corpus"/gltf/CesiumMan.glb "$corpus"/gltf/RiggedFigure.glb)
fail=0
for fmt in text json markdown sarif junit; do
    one=$("$bin" lint --jobs 1 --format "$fmt" "${files[@]}"; echo "exit $?")
    many=$("$bin" lint --jobs 4 --format "$fmt" "${files[@]}"; echo "exit $?")
    if [[ $one != "$many" ]]; then
        echo "FAIL: --format $fmt differs between --jobs 1 and --jobs 4"
        fail=1
    fi
done
out=$("$bin" lint --jobs 3 "$src/examples/assets/clip.glb" missing.glb "$src/examples/assets/clip-dirty.glb" 2>/tmp/animsmith_jobs_err.$$)
code=$?
err=$(cat /tmp/animsmith_jobs_err.$$); rm -f /tmp/animsmith_jobs_err.$$
[[ $code == 2 ]] || { echo "FAIL: exit $code with a missing file (expected 2)"; fail=1; }
[[ -z $out ]] || { echo "FAIL: stdout not empty after an operator failure: $out"; fail=1; }
[[ $err == "animsmith: missing.glb: No such file or directory" ]] || { echo "FAIL: stderr: $err"; fail=1; }
exit $fail
