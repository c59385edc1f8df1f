#!/usr/bin/env bash
# Clip-library lint benchmark: animsmith against the Khronos glTF-Validator
# and gltf-transform, side by side, in one run, on the same files
# (bench/README.md).
#
# Usage: bench/run_lint_bench.sh [--build DIR] [--data DIR] [--sizes "1x 10x 100x large"]
#                           [--runs N] [--compare-runs N] [--no-compare]
#
# For each size it generates the library once (build/gen_library, cached
# under --data with the generator's manifest), then times
#   animsmith   animsmith --config DIR/animsmith.toml lint --format json FILES
#   validator   the Khronos glTF-Validator (npm gltf-validator), validateBytes
#               on every file in one node process
#   inspect     gltf-transform inspect, one process per file (its CLI)
# and prints wall time (best of --runs for animsmith, default 3, and of
# --compare-runs for the comparison tools, default 1: they run 10-100x
# longer, so one run is as precise and keeps the 100x case within minutes),
# MB/s, peak RSS (largest of the runs; for inspect the largest single
# process) and each
# tool's wall time over animsmith's. Then the performance targets:
# validator/animsmith >= 20, animsmith 100x/1x wall <= ~120, animsmith peak
# RSS <= 2 x largest file + one clip's metric grid.
#
# The comparison tools are installed once into $BENCH_TOOLS (default
# ~/.cache/animsmith-bench-tools) with npm. It prints figures and always
# exits 0: a missing tool is reported as skipped, never as a failure.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD="$ROOT/build"
DATA=""
SIZES="1x 10x 100x large"
RUNS=3
COMPARE_RUNS=1
COMPARE=1
while [ $# -gt 0 ]; do
    case "$1" in
    --build) BUILD=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --compare-runs) COMPARE_RUNS=$2; shift 2 ;;
    --no-compare) COMPARE=0; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "run_lint_bench: unknown argument '$1' (see --help)"; exit 0 ;;
    esac
done
BUILD=$(cd "$BUILD" 2>/dev/null && pwd || echo "$BUILD")
DATA=${DATA:-${BENCH_DATA:-$BUILD/bench-library}}
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
  let errors = 0, warnings = 0;
  const files = process.argv.slice(2);
  for (const f of files) {
    const bytes = new Uint8Array(fs.readFileSync(f));
    const report = await validator.validateBytes(bytes, { uri: f, maxIssues: 0 });
    errors += report.issues.numErrors;
    warnings += report.issues.numWarnings;
  }
  process.stderr.write(`validated ${files.length} files: ${errors} errors, ${warnings} warnings\n`);
})().catch((e) => { process.stderr.write(String(e) + '\n'); process.exit(3); });
EOF

# gltf-transform is a CLI: one process per file, as a CI step would run it.
# A script (not a function) so GNU time can run it and see every process.
cat >"$SCRATCH/inspect_all.sh" <<'EOF'
bin=$1; shift
for f in "$@"; do
    "$bin" inspect "$f" >/dev/null || exit 3
done
EOF

# ---- lint options ---------------------------------------------------------
LINT_EXTRA=()
if "$ANIMSMITH" lint --help 2>&1 | grep -q -- '--jobs'; then
    LINT_EXTRA=(--jobs "$(nproc)")
    JOBS_NOTE="--jobs $(nproc)"
else
    JOBS_NOTE="no --jobs option in this build (single-threaded)"
fi

# ---- run ------------------------------------------------------------------
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "skip") printf "%.1f", a / b; else printf "-" }'; }
mbps() { awk -v b="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.1f", b / 1e6 / s; else printf "-" }'; }

manifest() { awk -v k="$2" '$1 == k { print $2 }' "$1/manifest.txt"; }

echo "animsmith clip-library lint benchmark"
echo "machine: nproc=$(nproc), $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)," \
     "$(uname -sr); animsmith: $("$ANIMSMITH" --version 2>/dev/null | head -n 1)"
echo "lint: $JOBS_NOTE; best of $RUNS animsmith run(s), $COMPARE_RUNS comparison run(s); data under $DATA"
mkdir -p "$DATA"

declare -A WALL1 KEYS1 LARGEST GRID
for size in $SIZES; do
    dir="$DATA/$size"
    case "$size" in
    1x|10x|100x|large) ;;
    *) note "unknown size '$size' (1x, 10x, 100x, large): skipped."; continue ;;
    esac
    if [ ! -f "$dir/manifest.txt" ]; then
        "$GEN" --preset "$size" "$dir" || { note "gen_library failed for $size: skipped."; continue; }
    fi
    files=("$dir"/clips_*.glb)
    nfiles=${#files[@]}
    total=$(manifest "$dir" total_bytes)
    # Warm the page cache so every tool reads from memory.
    cat "${files[@]}" >/dev/null

    echo
    echo "== $size: $nfiles file(s) x $(manifest "$dir" clips_per_file) clip(s) x" \
         "$(manifest "$dir" bones) bones x T/R/S x $(manifest "$dir" keys_per_track) keys," \
         "$(mb "$total") MB, largest file $(mb "$(manifest "$dir" largest_bytes)") MB"

    A_wall=skip; A_rss=skip
    measure A "$RUNS" "$ANIMSMITH" --config "$dir/animsmith.toml" lint --format json "${LINT_EXTRA[@]}" "${files[@]}"
    V_wall=skip; V_rss=skip; I_wall=skip; I_rss=skip; vsummary=""
    if [ $VALIDATOR_OK = 1 ]; then
        measure V "$COMPARE_RUNS" env NODE_PATH="$BENCH_TOOLS/node_modules" node --max-old-space-size=8192 \
            "$SCRATCH/validate_many.js" "${files[@]}"
        vsummary=$(grep -m1 '^validated' "$SCRATCH/err")
    fi
    if [ $INSPECT_OK = 1 ]; then
        measure I "$COMPARE_RUNS" bash "$SCRATCH/inspect_all.sh" "$INSPECT_BIN" "${files[@]}"
    fi

    printf '%-10s %6s %9s %9s %9s %12s %12s\n' tool files "total MB" "wall s" "MB/s" "peak RSS MiB" "x animsmith"
    row() {
        local name=$1 wall=$2 rss=$3
        if [ "$wall" = skip ]; then
            printf '%-10s %6s %9s %9s %9s %12s %12s\n' "$name" "$nfiles" "$(mb "$total")" skipped - - -
        else
            printf '%-10s %6s %9s %9s %9s %12s %12s\n' "$name" "$nfiles" "$(mb "$total")" "$wall" \
                "$(mbps "$total" "$wall")" "$rss" "$(ratio "$wall" "$A_wall")"
        fi
    }
    row animsmith "$A_wall" "$A_rss"
    row validator "$V_wall" "$V_rss"
    row inspect "$I_wall" "$I_rss"
    [ -n "$vsummary" ] && echo "  validator: $vsummary"

    WALL1[$size]=$A_wall
    KEYS1[$size]=$(manifest "$dir" total_keys)
    LARGEST[$size]=$(manifest "$dir" largest_bytes)
    GRID[$size]=$(manifest "$dir" grid_bytes)
    if [ "$V_wall" != skip ]; then
        r=$(ratio "$V_wall" "$A_wall")
        verdict=$(awk -v r="$r" 'BEGIN { print (r >= 20 ? "met" : "MISSED") }')
        echo "  throughput vs validator: ${r}x (target >= 20x): $verdict"
    fi
    if [ "$A_rss" != n/a ]; then
        limit=$(awk -v l="${LARGEST[$size]}" -v g="${GRID[$size]}" 'BEGIN { printf "%.1f", (2 * l + g) / 1048576 }')
        verdict=$(awk -v r="$A_rss" -v l="$limit" 'BEGIN { print (r <= l ? "met" : "MISSED") }')
        echo "  memory: peak RSS $A_rss MiB vs 2 x largest file + one grid = $limit MiB" \
             "(ratio $(ratio "$A_rss" "$limit")): $verdict"
    fi
done

if [ -n "${WALL1[1x]:-}" ] && [ -n "${WALL1[100x]:-}" ]; then
    echo
    kr=$(ratio "${KEYS1[100x]}" "${KEYS1[1x]}")
    cr=$(ratio "${WALL1[100x]}" "${WALL1[1x]}")
    verdict=$(awk -v r="$cr" 'BEGIN { print (r <= 120 ? "met" : "MISSED") }')
    echo "linear growth: 100x/1x keys = ${kr}x, animsmith wall = ${cr}x (target <= ~120x): $verdict"
    if [ -n "${WALL1[10x]:-}" ]; then
        echo "  (10x/1x wall = $(ratio "${WALL1[10x]}" "${WALL1[1x]}")x," \
             "100x/10x wall = $(ratio "${WALL1[100x]}" "${WALL1[10x]}")x)"
    fi
fi
exit 0
