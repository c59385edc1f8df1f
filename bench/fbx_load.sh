#!/usr/bin/env bash
# FBX load figures: for every FBX of the corpus (fbx/*.fbx, peer/*.fbx),
# `animsmith inspect FILE` against `cat FILE > /dev/null`: wall time
# (median of N runs, page cache warm) and peak RSS (GNU time's %M, median),
# printed as the markdown table of docs/performance.md ("FBX load").
# Use a Release build. Prints figures; never fails on a number.
#
# Usage: bench/fbx_load.sh [--build DIR] [--runs N] [--corpus DIR]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
runs=5
corpus=${ANIMSMITH_CORPUS:-$root/../shared/corpus}
while (($#)); do
    case $1 in
    -h | --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --build) build=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --corpus) corpus=$2; shift 2 ;;
    *) echo "fbx_load.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
bin=$build/animsmith
if [[ ! -x $bin ]]; then
    echo "skipped: $bin not found (build first: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release)"
    exit 0
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "skipped: /usr/bin/time not found (apt-get install time)"
    exit 0
fi
type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt" 2>/dev/null)
[[ $type == Release ]] || echo "note: $build is a '${type:-unknown}' build, not Release"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 0

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

# measure CMD...: sets ms and rss_kib (medians over $runs runs)
measure() {
    local i t0 t1
    : >"$tmp/ms"
    : >"$tmp/rss"
    for ((i = 0; i < runs; i++)); do
        t0=$(date +%s%N)
        /usr/bin/time -f %M -o "$tmp/one" "$@" >/dev/null 2>&1
        t1=$(date +%s%N)
        awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f\n", ns / 1e6 }' >>"$tmp/ms"
        tail -1 "$tmp/one" >>"$tmp/rss"
    done
    ms=$(median <"$tmp/ms")
    rss_kib=$(median <"$tmp/rss")
}

echo "animsmith: $bin ($("$bin" --version 2>/dev/null | head -1)); median of $runs runs; $(nproc) cores"
echo
echo "| file | MB | cat ms | inspect ms | inspect / cat | cat peak RSS MiB | inspect peak RSS MiB | RSS / file |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for f in "$corpus"/fbx/*.fbx "$corpus"/peer/*.fbx; do
    [[ -f $f ]] || continue
    bytes=$(stat -c %s "$f")
    cat "$f" >/dev/null # warm the page cache
    measure cat "$f"
    cat_ms=$ms cat_rss=$rss_kib
    if ! "$bin" inspect "$f" >/dev/null 2>"$tmp/err"; then
        echo "| $(basename "$f") | refused: $(head -1 "$tmp/err") |||||||"
        continue
    fi
    measure "$bin" inspect "$f"
    awk -v n="$(basename "$f")" -v b="$bytes" -v cm="$cat_ms" -v im="$ms" -v cr="$cat_rss" -v ir="$rss_kib" 'BEGIN {
        printf "| %s | %.3f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n",
            n, b / 1e6, cm, im, (cm > 0 ? im / cm : 0), cr / 1024, ir / 1024, ir * 1024 / b }'
done
exit 0
