#!/usr/bin/env bash
# measure's memory is bounded by the files in flight, not the library:
# each worker renders its file and releases the asset before taking the
# next. Over two generated libraries of the same shape, 2 and 12 files of
# large clips, the peak resident size of `measure --jobs 1` may grow by the
# output (the records are kept until the report is printed, rendered and
# joined) plus one file, never by one decoded asset per file. Skipped
# without python3 (which reads the peak) or the library generator.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$(cd "$1" && pwd)/animsmith
gen=$1/gen_library
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
[[ -x $gen ]] || { echo "skipped: $gen not built"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# AddressSanitizer holds freed memory back in a quarantine, which would
# count every released asset as resident; without sanitizers this is a
# no-op.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=0

# peak_kb OUT ARGS...: runs ARGS with stdout to OUT; prints its peak RSS.
peak_kb() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    code = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.DEVNULL).returncode
if code != 0:
    sys.exit("exit %d" % code)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
}
for n in 2 12; do
    "$gen" --files "$n" --clips 4 --keys 600 "$tmp/lib$n" >/dev/null || { echo "FAIL: gen_library"; exit 1; }
done
small=$(peak_kb "$tmp/small.json" "$bin" measure --jobs 1 "$tmp/lib2") || { echo "FAIL: measure lib2"; exit 1; }
large=$(peak_kb "$tmp/large.json" "$bin" measure --jobs 1 "$tmp/lib12") || { echo "FAIL: measure lib12"; exit 1; }
out_kb=$((($(wc -c <"$tmp/large.json") - $(wc -c <"$tmp/small.json")) / 1024))
file_kb=$(($(find "$tmp/lib12" -name '*.glb' -exec wc -c {} + | sort -n | tail -2 | head -1 | awk '{print $1}') / 1024))
allowed=$((3 * out_kb + file_kb + 4096))
growth=$((large - small))
echo "peak ${small} KB for 2 files, ${large} KB for 12 (growth ${growth} KB, allowed ${allowed} KB: output +${out_kb} KB, one file ${file_kb} KB)"
if ((growth > allowed)); then
    echo "FAIL: measure keeps every asset loaded until the end"
    exit 1
fi
