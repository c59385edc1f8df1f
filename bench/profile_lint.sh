#!/usr/bin/env bash
# Where lint's time goes: samples `animsmith lint --format json` over a
# generated clip library with perf (call graphs unwound from DWARF CFI, so
# no frame pointers or debug info are needed) and prints the breakdown by
# stage as a markdown table (bench/README.md, docs/performance.md).
#
# Usage: bench/profile_lint.sh [--animsmith BIN] [--gen BIN] [--data DIR]
#                              [--preset lib24|1x|10x|100x|large] [--jobs N]
#                              [--freq HZ] [--runs N] [--source DIR]
#                              [--symbols N] [--keep FILE]
#
#   --animsmith BIN  the binary to profile (default build/animsmith); a
#                    frozen older binary works too, so before and after are
#                    taken the same way
#   --gen BIN        the library generator (default gen_library beside BIN,
#                    else build/gen_library)
#   --data DIR       where the library is generated (default
#                    $BENCH_DATA, else ${TMPDIR:-/tmp}/animsmith-bench-library);
#                    a library already there is reused
#   --preset NAME    library shape (default lib24: 24 files x 12 clips x
#                    65 bones x 60 keys)
#   --jobs N         lint --jobs (default 1: one thread, the cleanest profile)
#   --freq HZ        sampling frequency (default 2000)
#   --runs N         profile N runs and add the samples up (default 3)
#   --source DIR     source tree whose function definitions map symbols to
#                    files (default this checkout; give the tree the binary
#                    was built from when profiling an older binary)
#   --symbols N      also list each category's top N leaf symbols
#   --keep FILE      keep the last perf.data as FILE
#
# Each sample is charged to the first frame, walking from the leaf up, that
# belongs to a category: a libc, libm, kernel or generic-helper frame
# (math.c, arena.c, strbuf.c, the thread pool) passes the sample on to its
# caller, so printf under the number printer counts as number formatting
# and acos under slerp as sampling. Categories come from the source file
# that defines the function, with a few function-level overrides (slerp is
# sampling, the pose FK and 4x4 products are FK). With debug info in the
# binary (-g) perf also reports inlined functions, so the stages stay exact
# under LTO; without it a note says that inlined code counts toward its
# caller. It needs perf (linux-perf) and permission to sample (root, or
# kernel.perf_event_paranoid <= 2 for user space). It prints figures or a
# note and always exits 0.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ANIMSMITH="$ROOT/build/animsmith"
GEN=""
DATA=""
PRESET=lib24
JOBS=1
FREQ=2000
RUNS=3
SOURCE="$ROOT"
SYMBOLS=0
KEEP=""
while [ $# -gt 0 ]; do
    case "$1" in
    --animsmith) ANIMSMITH=$2; shift 2 ;;
    --gen) GEN=$2; shift 2 ;;
    --data) DATA=$2; shift 2 ;;
    --preset) PRESET=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --freq) FREQ=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --source) SOURCE=$2; shift 2 ;;
    --symbols) SYMBOLS=$2; shift 2 ;;
    --keep) KEEP=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "profile_lint: unknown argument '$1' (see --help)"; exit 0 ;;
    esac
done

note() { echo "note: $*"; }

if [ -z "$GEN" ]; then
    GEN="$(dirname "$ANIMSMITH")/gen_library"
    [ -x "$GEN" ] || GEN="$ROOT/build/gen_library"
fi
if [ ! -x "$ANIMSMITH" ] || [ ! -x "$GEN" ]; then
    note "$ANIMSMITH or $GEN not built; build first (cmake --build build). Nothing profiled."
    exit 0
fi
if ! command -v perf >/dev/null 2>&1; then
    note "perf is not installed (apt-get install linux-perf): nothing profiled."
    exit 0
fi
if [ ! -d "$SOURCE/src" ]; then
    note "no source tree at $SOURCE (--source): nothing profiled."
    exit 0
fi

# Without debug info perf cannot see inlined functions, and a Release build
# with LTO inlines across files (the number printer into the JSON writer,
# the sampler into the grid): their time is charged to the caller's stage.
if command -v readelf >/dev/null 2>&1 && ! readelf -S "$ANIMSMITH" 2>/dev/null | grep -q '\.debug_info'; then
    note "$ANIMSMITH has no debug info: functions inlined into another file's" \
         "function (LTO) count toward the caller's stage. For an exact breakdown" \
         "build with debug info, which leaves the code unchanged:" \
         "cmake -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-g."
fi

# lib24 is spelled out so that a generator older than the preset works too.
case "$PRESET" in
lib24) GEN_ARGS=(--files 24 --clips 12 --keys 60) ;;
1x|10x|100x|large) GEN_ARGS=(--preset "$PRESET") ;;
*) note "unknown preset '$PRESET' (lib24, 1x, 10x, 100x, large): nothing profiled."; exit 0 ;;
esac
DATA=${DATA:-${BENCH_DATA:-${TMPDIR:-/tmp}/animsmith-bench-library}}
dir="$DATA/$PRESET"
if [ ! -f "$dir/manifest.txt" ]; then
    mkdir -p "$DATA"
    "$GEN" "${GEN_ARGS[@]}" "$dir" >/dev/null || { note "gen_library failed for $PRESET: nothing profiled."; exit 0; }
fi
files=("$dir"/clips_*.glb)
cat "${files[@]}" >/dev/null

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/lintprof.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

# ---- symbol -> category map ------------------------------------------------
# Every function defined at column 0 of a src/**/*.c file, with the category
# of its file; a name defined in two files (a static helper) is left out, so
# its samples pass on to the caller. Generic helpers map to "-" (pass on).
file_category() {
    case "$1" in
    io/gltf/file_read.c) echo read ;;
    io/json/json_read.c|io/gltf/gltf_scan.c|io/gltf/gltf_json.c) echo json_scan ;;
    io/gltf/gltf_accessor.c|io/gltf/gltf_buffers.c) echo accessor ;;
    io/gltf/*.c) echo docbuild ;;
    core/sample.c|core/grid.c) echo sampling ;;
    measure/clip_basic.c) echo m_clip ;;
    measure/loop_continuity.c) echo m_loop ;;
    measure/loop_endpoint.c) echo m_endpoint ;;
    measure/foot_cycle.c) echo m_foot ;;
    measure/root_trajectory.c) echo m_root ;;
    measure/speed.c) echo m_speed ;;
    measure/asset_*.c) echo m_asset ;;
    measure/*) echo m_other ;;
    checks/*|lint/run.c|lint/clip_pass.c|lint/registry.c|lint/record.c) echo checks ;;
    core/numfmt.c) echo numfmt ;;
    io/json/json_write.c|output/*) echo json_out ;;
    core/hash.c) echo sha ;;
    config/*|rig/*|io/toml/*.c|cli/args.c|cli/options.c|cli/paths.c) echo config ;;
    # Generic helpers and drivers: the caller decides.
    core/math.c|core/arena.c|core/strbuf.c|core/error.c|core/utf8.c|core/names.c|core/doc.c|core/path.c) echo - ;;
    lint/clip_facts.c|lint/grid_cache.c|cli/jobs.c) echo - ;;
    cli/*) echo driver ;;
    *) echo - ;;
    esac
}
while IFS= read -r f; do
    rel=${f#"$SOURCE/src/"}
    cat=$(file_category "$rel")
    awk -v cat="$cat" '
        /^[A-Za-z_][A-Za-z0-9_ \t*]*[ \t*][A-Za-z_][A-Za-z0-9_]*\(/ && !/;[ \t]*$/ &&
        !/^(typedef|return|else|if|for|while|switch|do)[ (]/ {
            s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t*]+/); print w[n], cat
        }' "$f"
done < <(find "$SOURCE/src" -name '*.c' | LC_ALL=C sort) >"$SCRATCH/defs"
awk '{ n[$1]++; c[$1] = $2 } END { for (k in n) if (n[k] == 1) print k, c[k] }' "$SCRATCH/defs" >"$SCRATCH/map"
# Function-level overrides (after the file rules, so they win).
cat >>"$SCRATCH/map" <<'EOF'
anim_quat_slerp sampling
anim_pose_sample sampling
anim_pose_fk fk
anim_mat4_mul fk
anim_mat4_from_trs fk
anim_mat4_transform_point fk
anim_mat4_transform_vector fk
EOF

# ---- profile ---------------------------------------------------------------
echo "animsmith lint profile: $("$ANIMSMITH" --version 2>/dev/null | head -n 1) ($ANIMSMITH)"
echo "machine: nproc=$(nproc), $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)," \
     "$(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "library: $dir ($(awk '$1 == "files" || $1 == "clips_per_file" || $1 == "bones" || $1 == "keys_per_track" { printf "%s %s, ", $1, $2 } $1 == "total_bytes" { printf "%.1f MB", $2 / 1e6 }' "$dir/manifest.txt"))"
cmd=("$ANIMSMITH" --config "$dir/animsmith.toml" lint --format json --jobs "$JOBS" "${files[@]}")
echo "command: perf record -F $FREQ --call-graph dwarf,16384 -o perf.data -- $ANIMSMITH --config $dir/animsmith.toml lint --format json --jobs $JOBS $dir/clips_*.glb > /dev/null  ($RUNS run(s))"
: >"$SCRATCH/script"
for ((r = 0; r < RUNS; r++)); do
    if ! perf record -q -F "$FREQ" --call-graph dwarf,16384 -o "$SCRATCH/perf.data" -- "${cmd[@]}" \
        >/dev/null 2>"$SCRATCH/perf.err"; then
        # lint exits 1 on findings, which perf passes on; only a missing
        # perf.data means sampling failed.
        if [ ! -s "$SCRATCH/perf.data" ]; then
            note "perf record failed (permissions? kernel.perf_event_paranoid): $(tail -n 2 "$SCRATCH/perf.err" | tr '\n' ' ')"
            exit 0
        fi
    fi
    perf script -i "$SCRATCH/perf.data" -F period,ip,sym,dso 2>/dev/null >>"$SCRATCH/script"
done
[ -n "$KEEP" ] && cp "$SCRATCH/perf.data" "$KEEP"

# ---- breakdown -------------------------------------------------------------
awk -v symbols="$SYMBOLS" -v runs="$RUNS" '
BEGIN {
    split("read json_scan accessor docbuild sampling fk m_clip m_loop m_endpoint m_foot m_root m_speed m_asset m_other checks numfmt json_out sha config driver startup other", order, " ")
    label["read"] = "read the files (file_read.c; kernel read, mmap, page faults under it)"
    label["json_scan"] = "JSON scan (json_read.c, gltf_scan.c, gltf_json.c)"
    label["accessor"] = "accessor decode (gltf_accessor.c, gltf_buffers.c)"
    label["docbuild"] = "document build (skeleton, clips, names: other io/gltf/*.c)"
    label["sampling"] = "sampling (sample.c, grid.c, slerp)"
    label["fk"] = "forward kinematics (anim_pose_fk, 4x4 products)"
    label["m_clip"] = "measure: clip basics, rotation ranges (clip_basic.c)"
    label["m_loop"] = "measure: loop continuity (loop_continuity.c)"
    label["m_endpoint"] = "measure: loop / duplicate endpoint (loop_endpoint.c)"
    label["m_foot"] = "measure: foot cycle (foot_cycle.c)"
    label["m_root"] = "measure: root trajectory (root_trajectory.c)"
    label["m_speed"] = "measure: speed (speed.c)"
    label["m_asset"] = "measure: asset families (asset_*.c)"
    label["m_other"] = "measure: other (src/measure)"
    label["checks"] = "checks (src/checks, lint/run.c, registry, records)"
    label["numfmt"] = "output: number formatting (numfmt.c)"
    label["json_out"] = "output: JSON structure and buffers (json_write.c, src/output)"
    label["sha"] = "output: SHA-256 of the inputs (hash.c, libcrypto)"
    label["config"] = "contract, rig, options (src/config, src/rig, cli args)"
    label["driver"] = "CLI driver (cmd_lint.c, main.c)"
    label["startup"] = "process start and exit (dynamic loader, kernel only)"
    label["other"] = "unattributed (unwinding stopped in libc/libm)"
}
FNR == NR { map[$1] = $2; next }
function base(s) { sub(/\..*$/, "", s); return s }
function finish(   c) {
    if (!insample) return
    c = cat
    if (c == "") {
        if (first_dso ~ /libcrypto/) c = "sha"
        else if (user_frames == 0 || first_dso ~ /ld-linux/) c = "startup"
        else c = "other"
    }
    tot[c] += period; total += period; nsamples++
    if (symbols > 0) sym[c, leaf] += period
    insample = 0
}
# perf script: a sample header line (the period, space-indented), then one
# tab-indented line per frame, leaf first, then an empty line.
/^[^\t]/ {
    finish()
    if ($0 ~ /^[ \t]*$/) next
    insample = 1; cat = ""; leaf = ""; first_dso = ""; user_frames = 0
    period = $1 + 0
    next
}
{
    if (!insample || cat != "") next
    line = $0; sub(/^[ \t]+[0-9a-f]+ /, "", line)
    dso = line; sub(/^.* \(/, "", dso); sub(/\)$/, "", dso)
    s = line; sub(/ \([^(]*\)$/, "", s); s = base(s)
    if (leaf == "") leaf = s
    if (dso ~ /kernel/) next
    user_frames++
    if (first_dso == "" && dso != "inlined") first_dso = dso
    if (s in map && map[s] != "-") cat = map[s]
}
END {
    finish()
    if (total == 0) { print "note: perf recorded no samples"; exit }
    printf "samples: %d over %d run(s), %.0f ms of CPU per run\n\n", nsamples, runs, total / 1e6 / runs
    printf "| stage | share | ms per run |\n|---|---:|---:|\n"
    # Every row, even an empty one, so tables of two binaries line up.
    for (i = 1; i in order; i++) {
        c = order[i]
        printf "| %s | %.1f%% | %.1f |\n", label[c], 100 * tot[c] / total, tot[c] / 1e6 / runs
    }
    printf "| total | 100%% | %.1f |\n", total / 1e6 / runs
    if (symbols > 0) {
        print ""
        for (i = 1; i in order; i++) {
            c = order[i]
            if (tot[c] == 0) continue
            n = 0
            for (k in sym) { split(k, kk, SUBSEP); if (kk[1] == c) { names[++n] = kk[2]; vals[n] = sym[k] } }
            for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++)
                if (vals[b] > vals[a] || (vals[b] == vals[a] && names[b] < names[a])) {
                    t = vals[a]; vals[a] = vals[b]; vals[b] = t; t = names[a]; names[a] = names[b]; names[b] = t
                }
            line = ""
            for (a = 1; a <= n && a <= symbols; a++) line = line sprintf("%s%s %.1f%%", a > 1 ? ", " : "", names[a], 100 * vals[a] / total)
            printf "%s: %s\n", c, line
        }
    }
}' "$SCRATCH/map" "$SCRATCH/script"
exit 0
