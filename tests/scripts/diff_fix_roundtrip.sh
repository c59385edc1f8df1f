#!/usr/bin/env bash
# diff transcripts that need files the CLI case runner cannot name: the
# walk-through's repair loop (fix clip-dirty.glb, then diff -> no significant
# movement, exit 0), a re-export that moved the motion (walk vs walk-dirty,
# exit 1), lint/measure JSON reports against their own assets (no
# movement), the JSON view, and malformed, multi-file, historical and
# mismatched reports (exit 2, no stdout).
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
assets=$src/examples/assets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect NAME CODE EXPECTED_STDOUT -- ARGS...   (run in $tmp; stderr must
# be empty unless CODE is 2, when stdout must be empty and stderr is kept
# in $tmp/stderr for the caller)
expect() {
    local name=$1 code=$2 out=$3
    shift 4
    (cd "$tmp" && "$bin" "$@") >"$tmp/stdout" 2>"$tmp/stderr"
    local rc=$?
    local ok=1
    [[ $rc == "$code" ]] || { echo "FAIL $name: exit $rc, expected $code"; ok=0; }
    if [[ $code == 2 ]]; then
        [[ -s $tmp/stdout ]] && { echo "FAIL $name: stdout not empty"; ok=0; }
        [[ -s $tmp/stderr ]] || { echo "FAIL $name: no diagnostic"; ok=0; }
    else
        diff -u <(printf '%s' "$out") "$tmp/stdout" || { echo "FAIL $name: stdout differs"; ok=0; }
        [[ -s $tmp/stderr ]] && { echo "FAIL $name: unexpected stderr:"; cat "$tmp/stderr"; ok=0; }
    fi
    if [[ $ok == 1 ]]; then echo "ok   $name"; else fail=1; fi
}

# expect_error NAME SUBSTRING -- ARGS...: exit 2 naming the problem.
expect_error() {
    local name=$1 want=$2
    shift 3
    expect "$name" 2 "" -- "$@"
    if ! grep -qF -- "$want" "$tmp/stderr"; then
        echo "FAIL $name: stderr lacks '$want':"
        cat "$tmp/stderr"
        fail=1
    fi
}

quiet=$'no significant movement\n0 significant change(s)\n'

# The walk-through's repair: it changed representation, not motion.
(cd "$tmp" && "$bin" fix "$assets/clip-dirty.glb" -o fixed.glb >/dev/null) ||
    { echo "FAIL fix -o fixed.glb"; exit 1; }
expect fix_roundtrip 0 "$quiet" -- diff "$assets/clip-dirty.glb" fixed.glb

# A re-export that moved the motion.
expect walk_vs_dirty 1 "  walk loop_seam_ratio: moved 0.0000 -> 6.8152
  walk gait.phase: moved 0.7500 -> 0.8482
  walk loop_continuity.bones[1].position_delta_m: moved 0.0000 -> 0.1581
  walk loop_continuity.bones[1].seam_velocity_delta_mps: moved 0.0000 -> 0.7972
  walk loop_continuity.bones[2].position_delta_m: moved 0.0000 -> 0.1581
  walk loop_continuity.bones[2].seam_velocity_delta_mps: moved 0.0000 -> 0.7972
6 significant change(s)
" -- diff "$assets/walk.glb" "$assets/walk-dirty.glb"

# Reports of ours against their assets: one comparison path, no movement.
"$bin" lint --format json "$assets/walk-dirty.glb" >"$tmp/walk-dirty.lint.json"
"$bin" measure "$assets/walk.glb" >"$tmp/walk.measure.JSON"
expect lint_report_vs_asset 0 "$quiet" -- diff walk-dirty.lint.json "$assets/walk-dirty.glb"
expect asset_vs_measure_report 0 "$quiet" -- diff "$assets/walk.glb" walk.measure.JSON
expect report_vs_report 1 "  walk loop_seam_ratio: moved 0.0000 -> 6.8152
  walk gait.phase: moved 0.7500 -> 0.8482
  walk loop_continuity.bones[1].position_delta_m: moved 0.0000 -> 0.1581
  walk loop_continuity.bones[1].seam_velocity_delta_mps: moved 0.0000 -> 0.7972
  walk loop_continuity.bones[2].position_delta_m: moved 0.0000 -> 0.1581
  walk loop_continuity.bones[2].seam_velocity_delta_mps: moved 0.0000 -> 0.7972
6 significant change(s)
" -- diff walk.measure.JSON walk-dirty.lint.json

# JSON view: the envelope, inputs as given, the count and the deltas.
(cd "$tmp" && "$bin" diff "$assets/walk.glb" "$assets/walk-dirty.glb" --format json) \
    >"$tmp/diff.json"
rc=$?
if [[ $rc != 1 ]]; then
    echo "FAIL json_view: exit $rc, expected 1"
    fail=1
elif python3 - "$tmp/diff.json" "$assets" <<'EOF'; then
import json, sys
d = json.load(open(sys.argv[1]))
assets = sys.argv[2]
assert list(d) == ["schema_version", "schema", "tool", "command", "inputs", "summary", "deltas"], list(d)
assert d["schema_version"] == 19 and d["schema"] == "urn:animsmith:schema:output:19"
assert d["command"] == "diff"
assert d["inputs"] == {"before": assets + "/walk.glb", "after": assets + "/walk-dirty.glb"}
assert d["summary"] == {"deltas": 6}
first = d["deltas"][0]
assert list(first) == ["clip", "metric", "before", "after", "note"], list(first)
assert first["clip"] == "walk" and first["metric"] == "loop_seam_ratio" and first["note"] == "moved"
assert abs(first["after"] - 6.8152) < 1e-4
EOF
    echo "ok   json_view"
else
    echo "FAIL json_view"
    fail=1
fi

# Malformed and mismatched reports: operator errors, exit 2.
python3 - "$tmp" <<'EOF'
import json, sys, os
tmp = sys.argv[1]
base = json.load(open(os.path.join(tmp, "walk.measure.JSON")))
def write(name, doc):
    with open(os.path.join(tmp, name), "w") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))
two = json.loads(json.dumps(base)); two["files"].append(two["files"][0]); two["summary"]["files"] = 2
write("two.json", two)
old = json.loads(json.dumps(base)); old["schema_version"] = 10; old["schema"] = "urn:animsmith:schema:output:10"
write("v10.json", old)
v17 = json.loads(json.dumps(base)); v17["schema_version"] = 17; v17["schema"] = "urn:animsmith:schema:output:17"
write("v17.json", v17)
mism = json.loads(json.dumps(base)); m = mism["files"][0]["measurements"]
m["schema_version"] = 16; m["schema"] = "urn:animsmith:schema:measurements:16"
write("mismatched.json", mism)
nan = json.loads(json.dumps(base)); nan["files"][0]["measurements"]["clips"]["walk"]["speed_mps"] = "NaN"
write("nan.json", nan)
row = json.loads(json.dumps(base)); row["files"][0]["measurements"]["clips"]["walk"]["loop_continuity"]["bones"][1]["bone_index"] = 7
write("row.json", row)
avail = json.loads(json.dumps(base)); del avail["files"][0]["measurements"]["clips"]["walk"]["gait_availability"]
write("avail.json", avail)
mesh = json.loads(json.dumps(base)); mesh["files"][0]["measurements"]["mesh_definitions"] = {}
write("mesh.json", mesh)
write("truncated.json", json.dumps(base)[:200])
EOF
expect_error multi_file "two.json contains 2 file records; diff expects a single-file measurement report" -- diff two.json "$assets/walk.glb"
expect_error output_v10 "regenerate a current output-v19 report from the original asset" -- diff v10.json "$assets/walk.glb"
expect_error output_v17_mismatched "output-v17 report carries measurements-v18" -- diff "$assets/walk.glb" v17.json
expect_error mismatched "output-v19 report carries measurements-v16" -- diff mismatched.json "$assets/walk.glb"
expect_error non_finite 'measurement value clips["walk"].speed_mps must be finite' -- diff nan.json "$assets/walk.glb"
expect_error bad_row 'clips["walk"].loop_continuity.bones[1] is invalid: bone_index 7' -- diff row.json "$assets/walk.glb"
expect_error missing_availability 'clips["walk"].gait_availability is invalid: missing' -- diff avail.json "$assets/walk.glb"
expect_error bad_mesh_evidence 'measurements.mesh_definitions is invalid: expected an array' -- diff mesh.json "$assets/walk.glb"
expect_error truncated "truncated.json: line 1" -- diff truncated.json "$assets/walk.glb"
expect_error not_an_asset "diff-me.txt" -- diff "$assets/walk.glb" diff-me.txt

exit $fail
