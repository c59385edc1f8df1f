#!/usr/bin/env bash
# mesh-quality residual of each corpus character against itself, with the
# envelope its own clips declare: every row either measures exactly 0 (a
# mesh is its own perfect LOD) or is refused / not measurable with a
# reason naming the mesh, and an operator error is one 'animsmith: ' line
# (exit 2). The JSON and text forms agree on the rows' count. Skipped
# without the corpus ($ANIMSMITH_CORPUS, ../shared/corpus beside the
# source, or /work/shared/corpus) or before the CLI has mesh-quality.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
corpus=""
for c in "${ANIMSMITH_CORPUS:-}" "$src/../shared/corpus" /work/shared/corpus; do
    if [[ -n $c && -d $c/gltf ]]; then
        corpus=$c/gltf
        break
    fi
done
if [[ -z $corpus ]]; then
    echo "skipped: corpus not found (set ANIMSMITH_CORPUS)"
    exit 77
fi
if ! "$bin" mesh-quality --help >/dev/null 2>&1; then
    echo "skipped: $bin has no mesh-quality subcommand yet"
    exit 77
fi
fail=0
measured=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for name in Xbot Michelle Soldier CesiumMan Fox RobotExpressive; do
    f=$corpus/$name.glb
    [[ -f $f ]] || { echo "note: $name.glb not in the corpus"; continue; }
    start=$(date +%s.%N)
    timeout 300 "$bin" mesh-quality residual "$f" "$f" --envelope-from-clips --format json \
        >"$tmp/out.json" 2>"$tmp/err.txt"
    code=$?
    end=$(date +%s.%N)
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    case $code in
    0 | 1)
        if ! summary=$(python3 - "$tmp/out.json" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "mesh-quality-report/1", doc["schema"]
bad = 0
out = []
for row in doc["rows"]:
    st = row["state"]
    if st == "measured":
        if row["value"] != 0 or row["skinning"]["worst"] is not None or row["worst"]["at"] != {}:
            bad = 1
        out.append("%s: %s (%d samples, weightSumGap %g)" % (row["mesh"], row["value"], row["samples"],
                                                              row["skinning"]["setup"]["weightSumGap"]))
    else:
        if not row.get("reason") or row["mesh"] not in row["reason"]:
            bad = 1
        out.append("%s: %s %s" % (row["mesh"], st, row.get("code", "")))
print("; ".join(out))
print(sum(r["state"] == "measured" for r in doc["rows"]))
sys.exit(bad)
EOF
        ); then
            echo "FAIL $name: a row against itself is not 0, or a refusal names no mesh"
            printf '%s\n' "$summary"
            fail=1
        else
            echo "$name (${secs}s): $(printf '%s\n' "$summary" | head -1)"
            measured=$((measured + $(printf '%s\n' "$summary" | tail -1)))
        fi
        rows=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rows"]))' "$tmp/out.json")
        lines=$("$bin" mesh-quality residual "$f" "$f" --envelope-from-clips --format text 2>/dev/null |
            grep -c "^mesh '")
        if [[ $rows -ne $lines ]]; then
            echo "FAIL $name: $rows JSON rows but $lines text lines"
            fail=1
        fi
        ;;
    2)
        err=$(cat "$tmp/err.txt")
        if [[ $(printf '%s\n' "$err" | wc -l) -ne 1 || $err != "animsmith: "* ]]; then
            echo "FAIL $name: operator error is not one 'animsmith: ' line: $err"
            fail=1
        else
            echo "$name (${secs}s): operator error: $err"
        fi
        ;;
    *)
        echo "FAIL $name: exit $code"
        head -20 "$tmp/err.txt"
        fail=1
        ;;
    esac
done
if [[ $measured -eq 0 ]]; then
    echo "FAIL: no corpus mesh measured"
    fail=1
fi
exit $fail
