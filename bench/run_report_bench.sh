#!/usr/bin/env bash
# HTML report figures on real characters: writes the report of each file
# (the corpus's Xbot and Michelle by default), prints bench_report's render
# times in C, then each page's size, time to its first drawn frame and
# playback frame rate in headless Chromium. Prints figures; never fails on
# a number.
#
# Usage: bench/run_report_bench.sh [BUILD_DIR] [FILE...]
set -u
case "${1:-}" in
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run_report_bench.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
files=("$@")
if ((${#files[@]} == 0)); then
    corpus=${ANIMSMITH_CORPUS:-$root/../shared/corpus}/gltf
    files=("$corpus/Xbot.glb" "$corpus/Michelle.glb")
fi
. "$root/tests/scripts/lib/browser.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pages=()
for f in "${files[@]}"; do
    [[ -f $f ]] || { echo "skipped: $f not found"; continue; }
    "$build/bench_report" --runs 3 "$f"
    page="$out/$(basename "${f%.*}").html"
    "$build/animsmith" report "$f" -o "$page" >/dev/null && pages+=("$page")
done
((${#pages[@]})) || exit 0
if ! browser_find; then
    echo "browser figures skipped: $BROWSER_MISSING"
    exit 0
fi
ANIMSMITH_PLAYWRIGHT=$BROWSER_PLAYWRIGHT ANIMSMITH_CHROMIUM=$BROWSER_CHROMIUM \
    node "$root/bench/report_render.mjs" "${pages[@]}"
