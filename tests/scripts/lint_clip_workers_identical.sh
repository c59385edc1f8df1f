#!/usr/bin/env bash
# The clips of one file judged by several clip workers (lint --jobs N with
# fewer files than N) give output byte-identical to --jobs 1 in every
# format: a generated multi-clip library (several clips' findings in one
# check's record, so any other merge order shows), the run-ring example
# (gait, sync and time-complement groups gathering per clip) and two
# files sharing the jobs; and a file of 600 clips, judged in batches.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
gen=$build/gen_library
[[ -x $gen ]] || { echo "skip: $gen is not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" --files 1 --clips 12 --keys 30 "$tmp/lib" >/dev/null || { echo "FAIL: gen_library"; exit 1; }
# More clips than one batch of the parallel pass (256), so batches join too.
"$gen" --files 1 --clips 600 --keys 6 "$tmp/lib600" >/dev/null || { echo "FAIL: gen_library"; exit 1; }
fail=0

# compare LABEL CONFIG FILE...: every format at --jobs 2, 3 and 8 against
# --jobs 1, stdout and exit code.
compare() {
    local label=$1 config=$2 fmt jobs
    shift 2
    for fmt in text json markdown sarif junit; do
        "$bin" --config "$config" lint --jobs 1 --format "$fmt" "$@" >"$tmp/one" 2>&1
        echo "exit $?" >>"$tmp/one"
        for jobs in 2 3 8; do
            "$bin" --config "$config" lint --jobs "$jobs" --format "$fmt" "$@" >"$tmp/many" 2>&1
            echo "exit $?" >>"$tmp/many"
            if ! cmp -s "$tmp/one" "$tmp/many"; then
                echo "FAIL: $label: --format $fmt differs between --jobs 1 and --jobs $jobs"
                diff "$tmp/one" "$tmp/many" | head -5
                fail=1
            fi
        done
    done
}

compare "generated library" "$tmp/lib/animsmith.toml" "$tmp/lib/clips_000.glb"
compare "run-ring" "$src/examples/run-ring.animsmith.toml" "$src/examples/assets/run-ring.glb"
compare "600 clips" "$tmp/lib600/animsmith.toml" "$tmp/lib600/clips_000.glb"
compare "two files" "$src/examples/run-ring.animsmith.toml" "$src/examples/assets/run-ring.glb" \
    "$tmp/lib/clips_000.glb"

# The comparison means something only if one record holds several clips'
# findings.
clips=$("$bin" --config "$tmp/lib/animsmith.toml" lint --jobs 1 "$tmp/lib/clips_000.glb" |
    grep "loop-seam-vel" | grep -o "clip '[^']*'" | sort -u | wc -l)
[[ $clips -ge 2 ]] || { echo "FAIL: the generated file has loop-seam-vel findings in $clips clip(s)"; fail=1; }
exit $fail
