#!/usr/bin/env bash
# The FBX mutation corpus: deterministic mutated copies of every corpus
# FBX (../shared/corpus fbx/*.fbx and peer/*.fbx) and of the generated
# examples/assets/*.fbx (byte flips, truncations, record length fields,
# zeroed and huge array counts, swapped bytes in compressed arrays, broken
# ASCII counts/braces/numbers/quotes: tests/scripts/lib/fbx_mutate.py) go
# through `animsmith inspect`. Every run exits 0 or 2 within 10 s, prints no
# sanitizer report, and on exit 2 prints one stderr line that names the
# file. ANIMSMITH_FBX_MUTATIONS sets the copies per file (default: a count
# that keeps the sanitizer build within about 3 minutes on 2 cores);
# ANIMSMITH_FBX_MUTATION_JOBS the parallel runs (default 2). Failing copies
# are kept in BUILD_DIR/fbx-mutation-failures.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
corpus=${ANIMSMITH_CORPUS:-$src/../shared/corpus}
lib=$(cd "$(dirname "$0")/lib" && pwd)
files=()
for f in "$corpus"/fbx/*.fbx "$corpus"/peer/*.fbx "$src"/examples/assets/*.fbx; do
    [[ -f $f ]] && files+=("$f")
done
if [[ ${#files[@]} -eq 0 ]]; then
    echo "skipped: no FBX file (corpus not found at $corpus, no examples/assets/*.fbx)"
    exit 77
fi
# The sanitizer build runs about 10x slower; a few large Mixamo files
# dominate. The default keeps the whole run bounded in both builds.
if [[ -n ${ANIMSMITH_FBX_MUTATIONS:-} ]]; then
    count=$ANIMSMITH_FBX_MUTATIONS
elif grep -q '^ANIMSMITH_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
    count=96
else
    count=128
fi
jobs=${ANIMSMITH_FBX_MUTATION_JOBS:-2}
kept=$build/fbx-mutation-failures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

# One batch: write its mutated copies, run each, print one verdict line per
# failure (and "." per pass, counted below), delete the copies.
worker() {
    local file=$1 first=$2 end=$3 dir out code lines m
    dir=$(mktemp -d "$tmp/b.XXXXXX")
    python3 "$lib/fbx_mutate.py" write "$file" "$first" "$end" "$dir" || {
        echo "FAIL $file $first-$end: the generator failed"
        return
    }
    for m in "$dir"/*.fbx; do
        out=$(cd "$dir" && timeout 10 "$bin" inspect "$m" 2>&1 >/dev/null)
        code=$?
        lines=$(printf '%s\n' "$out" | wc -l)
        verdict=
        if [[ $out == *Sanitizer* || $out == *"runtime error:"* || $out == *LeakSanitizer* ]]; then
            verdict="sanitizer report (exit $code)"
        elif [[ $code -eq 124 ]]; then
            verdict="timeout (10 s)"
        elif [[ $code -eq 2 ]]; then
            if [[ -z $out || $lines -ne 1 || $out != "animsmith: "* ]]; then
                verdict="refusal is not one 'animsmith: ' line"
            elif [[ $out != *"$(basename "$m")"* ]]; then
                verdict="refusal does not name the file"
            fi
        elif [[ $code -ne 0 ]]; then
            verdict="exit $code"
        fi
        if [[ -n $verdict ]]; then
            echo "FAIL $(basename "$m"): $verdict"
            printf '%s\n' "$out" | head -8 | sed 's/^/    /'
            mkdir -p "$kept" && cp "$m" "$kept/"
        else
            echo "."
        fi
    done
    rm -rf "$dir"
}
export -f worker
export tmp lib bin kept

start=$SECONDS
python3 "$lib/fbx_mutate.py" batches "$count" 8 "${files[@]}" |
    xargs -P "$jobs" -L 1 bash -c 'worker "$@"' _ >"$tmp/verdicts"
passed=$(grep -c '^\.$' "$tmp/verdicts")
failed=$(grep -c '^FAIL' "$tmp/verdicts")
grep -v '^\.$' "$tmp/verdicts"
echo "mutated ${#files[@]} files x $count: $passed passed, $failed failed ($((SECONDS - start)) s)"
[[ $failed -eq 0 && $passed -eq $((${#files[@]} * count)) ]]
