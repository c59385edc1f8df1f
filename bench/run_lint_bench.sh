#!/usr/bin/env bash
# Clip-library lint benchmark: animsmith against the Khronos glTF-Validator,
# gltf-transform and cat, side by side, in one run, on the same files
# (bench/README.md).
#
# Usage: bench/run_lint_bench.sh [--build DIR] [--animsmith BIN] [--data DIR]
#                           [--sizes "lib24 1x 10x 100x large corpus"]
#                           [--corpus DIR] [--runs N] [--compare-runs N]
#                           [--no-compare]
#
# For each size it generates the library once (build/gen_library, cached
# under --data with the generator's manifest; "corpus" is every GLB of
# --corpus, default ../shared/corpus/gltf beside the checkout, that
# animsmith loads), then times
#   animsmith -j1  animsmith --config DIR/animsmith.toml lint --format json
#                  --jobs 1 FILES
#   animsmith -jN  the same with --jobs $(nproc) (all cores)
#   validator      the Khronos glTF-Validator (npm gltf-validator),
#                  validateBytes on every file in one warm node process,
#                  maxIssues 0 (every issue reported)
#   inspect        gltf-transform inspect, one process per file (its CLI)
#   cat            cat FILES > /dev/null: the cost of reading the files
# and prints wall time (best of --runs for animsmith and cat, default 3,
# and of --compare-runs for the comparison tools, default 1: they run
# 10-100x longer, so one run is as precise and keeps the 100x case within
# minutes), MB/s, peak RSS (largest of the runs; for inspect the largest
# single process) and each tool's wall time over animsmith -j1's.
# --animsmith BIN times a second (baseline) binary the same way in the
# same run, alternating with the build's binary run by run: the "baseline"
# column gives its wall time and how many times faster the build's binary is.
# Then the performance targets, each printed beside its figure:
# validator / animsmith -j1 >= 20 (stretch: validator / animsmith -jN >= 50),
# animsmith -j1 / cat <= 3, animsmith 100x/1x wall <= ~120 (linear growth),
# animsmith peak RSS <= 2 x largest file + one clip's metric grid.
#
# The comparison tools are installed once into $BENCH_TOOLS (default
# ~/.cache/animsmith-bench-tools) with npm. It prints figures and always
# exits 0: a missing tool is reported as skipped, never as a failure.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD="$ROOT/build"
BASELINE=""
DATA=""
SIZES="lib24 1x 10x 100x large corpus"
CORPUS="$ROOT/../shared/corpus/gltf"
RUNS=3
COMPARE_RUNS=1
COMPARE=1
while [ $# -gt 0 ]; do
    case "$1" in
    --build) BUILD=$2; shift 2 ;;
    --animsmith) BASELINE=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    --corpus) CORPUS=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --compare-runs) COMPARE_RUNS=$2; shift 2 ;;
    --no-compare) COMPARE=0; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "run_lint_bench: unknown argument '$1' (see --help)"; exit 0 ;;
    esac
done
abspath() { (cd "$(dirname "$1")" 2>/dev/null && echo "$(pwd)/$(basename "$1")") || echo "$1"; }
BUILD=$(cd "$BUILD" 2>/dev/null && pwd || echo "$BUILD")
DATA=${DATA:-${BENCH_DATA:-$BUILD/bench-library}}
DATA=$(abspath "$DATA")
CORPUS=$(cd "$CORPUS" 2>/dev/null && pwd || echo "$CORPUS")
[ -n "$BASELINE" ] && BASELINE=$(abspath "$BASELINE")
BENCH_TOOLS=${BENCH_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/animsmith-bench-tools}
ANIMSMITH="$BUILD/animsmith"
GEN="$BUILD/gen_library"

note() { echo "note: $*"; }

if [ ! -x "$ANIMSMITH" ] || [ ! -x "$GEN" ]; then
    note "$ANIMSMITH or $GEN not built; build first (cmake --build $BUILD). Nothing measured."
    exit 0
fi

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/lintbench.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

# ---- timing ---------------------------------------------------------------
# GNU time gives peak RSS (%M, KiB; for a shell loop the largest child);
# wall time comes from the clock around it for millisecond resolution.
HAVE_GNU_TIME=0
if /usr/bin/time -f '%M' true >/dev/null 2>&1; then
    HAVE_GNU_TIME=1
else
    note "/usr/bin/time (GNU time) is missing: peak RSS is not measured" \
         "(apt-get install time)."
fi

now_ns() { date +%s%N; }

# measure OUT_PREFIX RUNS CMD...: best wall (s) and largest peak RSS (MiB) of
# RUNS runs into ${OUT_PREFIX}_wall / _rss; the command's exit status is
# ignored (lint exits 1 on findings) except 127/126 (not runnable), which
# sets _wall to "skip". stdout is discarded, stderr kept in $SCRATCH/err.
measure() {
    local prefix=$1 runs=$2; shift 2
    local best="" rss=0 r t0 t1 st m
    for ((r = 0; r < runs; r++)); do
        t0=$(now_ns)
        if [ $HAVE_GNU_TIME = 1 ]; then
            /usr/bin/time -f '%M' -o "$SCRATCH/rss" "$@" >/dev/null 2>"$SCRATCH/err"
        else
            "$@" >/dev/null 2>"$SCRATCH/err"
        fi
        st=$?
        t1=$(now_ns)
        if [ $st = 126 ] || [ $st = 127 ]; then
            printf -v "${prefix}_wall" skip
            printf -v "${prefix}_rss" skip
            return
        fi
        if [ $st -ge 2 ] && [ $st -ne 127 ]; then
            note "$1 exited with status $st: $(tail -n 2 "$SCRATCH/err" | tr '\n' ' ')"
        fi
        t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
        if [ -z "$best" ] || awk -v x="$t" -v y="$best" 'BEGIN { exit !(x < y) }'; then
            best=$t
        fi
        if [ $HAVE_GNU_TIME = 1 ]; then
            m=$(tail -n 1 "$SCRATCH/rss")
            [ "$m" -gt "$rss" ] 2>/dev/null && rss=$m
        fi
    done
    printf -v "${prefix}_wall" '%s' "$best"
    if [ $HAVE_GNU_TIME = 1 ]; then
        printf -v "${prefix}_rss" '%s' "$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')"
    else
        printf -v "${prefix}_rss" 'n/a'
    fi
}

# ---- comparison tools -----------------------------------------------------
VALIDATOR_OK=0
INSPECT_OK=0
INSPECT_BIN="$BENCH_TOOLS/node_modules/.bin/gltf-transform"
if [ $COMPARE = 1 ]; then
    if ! command -v node >/dev/null 2>&1; then
        note "node is not installed: gltf-validator and gltf-transform are skipped."
    else
        if [ ! -d "$BENCH_TOOLS/node_modules" ]; then
            if command -v npm >/dev/null 2>&1; then
                echo "installing gltf-validator and @gltf-transform/cli into $BENCH_TOOLS ..."
                mkdir -p "$BENCH_TOOLS"
                npm install --prefix "$BENCH_TOOLS" --no-audit --no-fund \
                    gltf-validator @gltf-transform/cli >"$SCRATCH/npm.log" 2>&1 ||
                    note "npm install failed: $(tail -n 3 "$SCRATCH/npm.log" | tr '\n' ' ')"
            else
                note "npm is not installed: the comparison tools are skipped."
            fi
        fi
        if [ -d "$BENCH_TOOLS/node_modules/gltf-validator" ]; then
            VALIDATOR_OK=1
        else
            note "gltf-validator is not installed in $BENCH_TOOLS: skipped."
        fi
        if [ -x "$INSPECT_BIN" ]; then
            INSPECT_OK=1
        else
            note "gltf-transform is not installed in $BENCH_TOOLS: skipped."
        fi
    fi
fi

# The validator is a library: one node process validates every file in turn
# (reading each from disk, as a CLI would), so start-up is paid once.
cat >"$SCRATCH/validate_many.js" <<'EOF'
'use strict';
const fs = require('fs');
const validator = require('gltf-validator');
(async () => {
  let errors = 0, warnings = 0, failed = 0;
  const files = process.argv.slice(2);
  for (const f of files) {
    const bytes = new Uint8Array(fs.readFileSync(f));
    try {
      const report = await validator.validateBytes(bytes, { uri: f, maxIssues: 0 });
      errors += report.issues.numErrors;
      warnings += report.issues.numWarnings;
    } catch (e) {
      failed++; // a file the validator cannot read still cost its time
    }
  }
  process.stderr.write(`validated ${files.length} files: ${errors} errors, ${warnings} warnings` +
                       (failed ? `, ${failed} not validated` : '') + '\n');
})().catch((e) => { process.stderr.write(String(e) + '\n'); process.exit(3); });
EOF

# gltf-transform is a CLI: one process per file, as a CI step would run it.
# A script (not a function) so GNU time can run it and see every process.
cat >"$SCRATCH/inspect_all.sh" <<'EOF'
bin=$1; shift
failed=0
for f in "$@"; do
    "$bin" inspect "$f" >/dev/null 2>&1 || failed=$((failed + 1))
done
echo "inspected $# files, $failed failed" >&2
EOF

# ---- lint options ---------------------------------------------------------
NPROC=$(nproc)
# jobs_args BIN N: "--jobs N" when BIN's lint has the option (older builds
# lint one file at a time and have none).
jobs_args() {
    if "$1" lint --help 2>&1 | grep -q -- '--jobs'; then
        echo "--jobs $2"
    fi
}
if [ -n "$BASELINE" ] && [ ! -x "$BASELINE" ]; then
    note "--animsmith $BASELINE is not an executable: no baseline column."
    BASELINE=""
fi
[ -z "$(jobs_args "$ANIMSMITH" 1)" ] &&
    note "$ANIMSMITH has no lint --jobs: both animsmith rows run single-threaded."

# ---- run ------------------------------------------------------------------
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN {
        if (a == "skip" || a == "-" || b == "skip" || b == "-" || b <= 0) { printf "-"; exit }
        r = a / b
        printf (r >= 1 || r == 0 ? "%.1f" : "%.2g"), r }'
}
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f", b / 1e6 / s; else printf "-" }'; }
# verdict X OP LIMIT: "met" or "MISSED" ("not measured" when X is missing).
verdict() {
    awk -v x="$1" -v op="$2" -v l="$3" 'BEGIN {
        if (x == "-" || x == "skip" || x == "n/a" || x == "") { print "not measured"; exit }
        ok = op == ">=" ? x + 0 >= l + 0 : x + 0 <= l + 0
        print ok ? "met" : "MISSED" }'
}

# xs R: "4.6x", or "-" when not measured.
xs() { if [ "$1" = - ]; then echo -; else echo "${1}x"; fi; }

manifest() { awk -v k="$2" '$1 == k { print $2 }' "$1/manifest.txt"; }
fsize() { stat -c %s "$1" 2>/dev/null || wc -c <"$1"; }

echo "animsmith clip-library lint benchmark"
echo "machine: nproc=$NPROC, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)," \
     "$(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "animsmith: $("$ANIMSMITH" --version 2>/dev/null | head -n 1) ($ANIMSMITH)"
[ -n "$BASELINE" ] && echo "baseline:  $("$BASELINE" --version 2>/dev/null | head -n 1) ($BASELINE)"
echo "best of $RUNS animsmith/cat run(s), $COMPARE_RUNS comparison run(s); data under $DATA"
mkdir -p "$DATA"
# Run from an empty directory, so no ./animsmith.toml is picked up where a
# library brings no contract (the corpus).
cd "$SCRATCH" || exit 0

cols() { printf '%-14s %6s %9s %9s %9s %12s %12s %16s\n' "$@"; }
row() {
    local name=$1 wall=$2 rss=$3 base=${4:--}
    if [ "$wall" = skip ]; then
        cols "$name" "$nfiles" "$(mb "$total")" skipped - - - -
    else
        cols "$name" "$nfiles" "$(mb "$total")" "$wall" \
            "$(mbps "$total" "$wall")" "$rss" "$(ratio "$wall" "$A1_wall")" "$base"
    fi
}
# base_cell CUR_WALL BASE_WALL: the baseline's wall time and how many times
# faster the build's binary is, "1.234 (2.9x)".
base_cell() {
    if [ -z "$BASELINE" ] || [ "$2" = skip ]; then echo -; else echo "$2 ($(ratio "$2" "$1")x)"; fi
}
# lint_cmd PREFIX RUNS BIN JOBS: times BIN lint --format json on the files.
lint_cmd() {
    local prefix=$1 runs=$2 bin=$3 jobs=$4 jargs
    read -r -a jargs <<<"$(jobs_args "$bin" "$jobs")"
    measure "$prefix" "$runs" "$bin" "${config[@]}" lint --format json "${jargs[@]}" "${files[@]}"
}

# keep_best PREFIX: folds the last single run (T_wall, T_rss) into
# PREFIX_wall (smallest) and PREFIX_rss (largest).
keep_best() {
    local w="${1}_wall" m="${1}_rss"
    if [ "$T_wall" != skip ] && { [ "${!w}" = skip ] || awk -v x="$T_wall" -v y="${!w}" 'BEGIN { exit !(x < y) }'; }; then
        printf -v "$w" '%s' "$T_wall"
    fi
    if [ "$T_rss" = n/a ] || [ "$T_rss" = skip ]; then
        [ "${!m}" = skip ] && printf -v "$m" '%s' "$T_rss"
    elif [ "${!m}" = skip ] || [ "${!m}" = n/a ] || awk -v x="$T_rss" -v y="${!m}" 'BEGIN { exit !(x > y) }'; then
        printf -v "$m" '%s' "$T_rss"
    fi
}

declare -A WALL1 KEYS1
for size in $SIZES; do
    dir="$DATA/$size"
    config=()
    case "$size" in
    lib24|1x|10x|100x|large)
        if [ ! -f "$dir/manifest.txt" ]; then
            # lib24 spelled out, so a generator older than the preset works.
            if [ "$size" = lib24 ]; then gargs=(--files 24 --clips 12 --keys 60); else gargs=(--preset "$size"); fi
            "$GEN" "${gargs[@]}" "$dir" >/dev/null || { note "gen_library failed for $size: skipped."; continue; }
        fi
        files=("$dir"/clips_*.glb)
        total=$(manifest "$dir" total_bytes)
        largest=$(manifest "$dir" largest_bytes)
        grid=$(manifest "$dir" grid_bytes)
        config=(--config "$dir/animsmith.toml")
        shape="${#files[@]} file(s) x $(manifest "$dir" clips_per_file) clip(s) x $(manifest "$dir" bones)"
        shape="$shape bones x T/R/S x $(manifest "$dir" keys_per_track) keys"
        ;;
    corpus)
        # Every GLB the build's animsmith loads (lint exits 0 or 1), no contract.
        files=()
        total=0; largest=0; grid=""
        for f in "$CORPUS"/*.glb; do
            [ -f "$f" ] || continue
            "$ANIMSMITH" lint --format json "$f" >/dev/null 2>&1
            [ $? -le 1 ] || continue
            files+=("$f")
            b=$(fsize "$f"); total=$((total + b)); [ "$b" -gt "$largest" ] && largest=$b
        done
        if [ ${#files[@]} = 0 ]; then note "no loadable GLB under $CORPUS: corpus skipped."; continue; fi
        shape="${#files[@]} loadable GLB(s) of $CORPUS, no contract"
        ;;
    *) note "unknown size '$size' (lib24, 1x, 10x, 100x, large, corpus): skipped."; continue ;;
    esac
    nfiles=${#files[@]}
    # Warm the page cache so every tool reads from memory.
    cat "${files[@]}" >/dev/null

    echo
    echo "== $size: $shape, $(mb "$total") MB, largest file $(mb "$largest") MB"

    # measure and keep_best set these through printf -v and ${!name}.
    A1_wall=skip; A1_rss=skip; AN_wall=skip; AN_rss=skip; T_wall=skip; T_rss=skip
    B1_wall=skip; BN_wall=skip; C_wall=skip; C_rss=skip
    # shellcheck disable=SC2034 # the baseline's peak RSS is kept, not printed
    B1_rss=skip BN_rss=skip
    if [ -n "$BASELINE" ]; then
        # Alternate the two binaries run by run, so a burst of load from
        # elsewhere hits both alike.
        for ((r = 0; r < RUNS; r++)); do
            lint_cmd T 1 "$ANIMSMITH" 1; keep_best A1
            lint_cmd T 1 "$BASELINE" 1; keep_best B1
            lint_cmd T 1 "$ANIMSMITH" "$NPROC"; keep_best AN
            lint_cmd T 1 "$BASELINE" "$NPROC"; keep_best BN
        done
    else
        lint_cmd A1 "$RUNS" "$ANIMSMITH" 1
        lint_cmd AN "$RUNS" "$ANIMSMITH" "$NPROC"
    fi
    V_wall=skip; V_rss=skip; I_wall=skip; I_rss=skip; vsummary=""; isummary=""
    if [ $VALIDATOR_OK = 1 ]; then
        measure V "$COMPARE_RUNS" env NODE_PATH="$BENCH_TOOLS/node_modules" node --max-old-space-size=8192 \
            "$SCRATCH/validate_many.js" "${files[@]}"
        vsummary=$(grep -m1 '^validated' "$SCRATCH/err")
    fi
    if [ $INSPECT_OK = 1 ]; then
        measure I "$COMPARE_RUNS" bash "$SCRATCH/inspect_all.sh" "$INSPECT_BIN" "${files[@]}"
        isummary=$(grep -m1 '^inspected' "$SCRATCH/err")
    fi
    measure C "$RUNS" cat "${files[@]}"

    cols tool files "total MB" "wall s" "MB/s" "peak RSS MiB" "x animsmith" "baseline s"
    row "animsmith -j1" "$A1_wall" "$A1_rss" "$(base_cell "$A1_wall" "$B1_wall")"
    row "animsmith -j$NPROC" "$AN_wall" "$AN_rss" "$(base_cell "$AN_wall" "$BN_wall")"
    row validator "$V_wall" "$V_rss"
    row inspect "$I_wall" "$I_rss"
    row cat "$C_wall" "$C_rss"
    [ -n "$vsummary" ] && echo "  validator: $vsummary"
    [ -n "$isummary" ] && echo "  inspect: $isummary"
    legend="x animsmith: the tool's wall time over animsmith -j1's"
    [ -n "$BASELINE" ] &&
        legend="$legend; baseline s: the --animsmith binary's, and how many times faster this build is"
    echo "  ($legend)"

    WALL1[$size]=$A1_wall
    [ -f "$dir/manifest.txt" ] && KEYS1[$size]=$(manifest "$dir" total_keys)
    r1=$(ratio "$V_wall" "$A1_wall")
    rn=$(ratio "$V_wall" "$AN_wall")
    rc=$(ratio "$A1_wall" "$C_wall")
    echo "  throughput vs validator, one job: $(xs "$r1") (target >= 20x): $(verdict "$r1" '>=' 20)"
    echo "  throughput vs validator, $NPROC jobs: $(xs "$rn") (stretch >= 50x): $(verdict "$rn" '>=' 50)"
    echo "  lint -j1 over cat: $(xs "$rc") (target <= 3x): $(verdict "$rc" '<=' 3)"
    if [ "$A1_rss" != n/a ] && [ "$A1_rss" != skip ]; then
        if [ -n "$grid" ]; then
            limit=$(awk -v l="$largest" -v g="$grid" 'BEGIN { printf "%.1f", (2 * l + g) / 1048576 }')
            what="2 x largest file + one grid"
        else
            limit=$(awk -v l="$largest" 'BEGIN { printf "%.1f", 2 * l / 1048576 }')
            what="2 x largest file (no grid size for the corpus)"
        fi
        echo "  memory, one job: peak RSS $A1_rss MiB vs $what = $limit MiB" \
             "(ratio $(ratio "$A1_rss" "$limit")): $(verdict "$A1_rss" '<=' "$limit")"
        echo "  memory, $NPROC jobs: peak RSS $AN_rss MiB (ratio $(ratio "$AN_rss" "$limit") to the same" \
             "bound; $NPROC files can be in flight)"
    fi
done

if [ -n "${WALL1[1x]:-}" ] && [ -n "${WALL1[10x]:-}${WALL1[100x]:-}" ]; then
    echo
    big=100x
    [ -n "${WALL1[100x]:-}" ] || big=10x
    limit=$([ $big = 100x ] && echo 120 || echo 12)
    kr=$(ratio "${KEYS1[$big]}" "${KEYS1[1x]}")
    cr=$(ratio "${WALL1[$big]}" "${WALL1[1x]}")
    echo "linear growth: $big/1x keys = ${kr}x, animsmith -j1 wall = ${cr}x (target <= ~${limit}x):" \
         "$(verdict "$cr" '<=' "$limit")"
    if [ $big = 100x ] && [ -n "${WALL1[10x]:-}" ]; then
        echo "  (10x/1x wall = $(ratio "${WALL1[10x]}" "${WALL1[1x]}")x," \
             "100x/10x wall = $(ratio "${WALL1[100x]}" "${WALL1[10x]}")x)"
    fi
fi
exit 0
