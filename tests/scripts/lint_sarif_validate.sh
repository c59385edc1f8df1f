#!/usr/bin/env bash
# `lint --format sarif` is valid SARIF 2.1.0 and says what lint JSON says.
#
# Several example assets and contracts (glTF and FBX, findings of every
# severity, member rows, coverage gaps, an engine profile, a directory
# linted with one and two jobs, an absolute path and a relative one with a
# space and "..")
# are linted as SARIF and as JSON.
#
# 1. Always (needs python3): each log is checked against the JSON of the
#    same run: the rules are the catalog of `animsmith checks` in order,
#    every finding is one result in file, catalog and emission order with
#    its ruleId, ruleIndex, level, properties and artifact index; every
#    coverage gap and required-unavailable facet is one notification; the
#    artifacts carry the JSON's sha-256 and byte count; the exit code is
#    the text run's. --jobs never changes a byte; --allow is refused.
# 2. Microsoft's SARIF Multitool (npm `@microsoft/sarif-multitool`, pinned
#    in lib/sarif_multitool.sh and installed into the test-tool cache where
#    npm exists) validates every log: no error, and no warning but SARIF2005
#    (the tool names no informationUri: the project publishes no URL), which
#    must appear once per log, proving each was analysed. A log broken on
#    purpose must be flagged, proving the validator runs. Without node or
#    the module the script reports part 1 and exits 77 (skipped).
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
. "$(dirname "$0")/lib/sarif_multitool.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$src" || exit 1

# The cases: NAME|CONFIG (or -)|ARGS...
cp examples/assets/walk.glb "$tmp/my walk.glb"
spaced=$(python3 -c 'import os, sys; print(os.path.relpath(sys.argv[1]))' "$tmp/my walk.glb")
{ cat examples/walk.animsmith.toml
  printf '\n[engine]\nprofile = "bevy"\nprofile_revision = 1\nengine_version = "0.19.0"\nimporter = "gltf-asset-loader"\n'
} >"$tmp/bevy.toml"
cases=(
    "walk_dirty|examples/walk.animsmith.toml|examples/assets/walk-dirty.glb"
    "walk_clean|examples/walk.animsmith.toml|examples/assets/walk.glb"
    "clip_dirty|-|examples/assets/clip-dirty.glb"
    "run_ring|examples/run-ring.animsmith.toml|examples/assets/run-ring.glb"
    "members_fbx|examples/character.animsmith.toml|examples/assets/mixamo-walk.fbx"
    "frozen_arm|examples/walk-frozen-arm.animsmith.toml|examples/assets/walk-frozen-arm.glb"
    "bevy|$tmp/bevy.toml|examples/assets/walk.glb examples/assets/walk-dirty.glb"
    "deny_warnings|examples/walk.animsmith.toml|--deny-warnings examples/assets/walk.glb"
    "absolute|examples/walk.animsmith.toml|$src/examples/assets/walk-dirty.glb"
    "space|examples/walk.animsmith.toml|$spaced"
    "library|examples/walk.animsmith.toml|--jobs 2 examples/assets"
)
# The engine examples, whose prediction facets (available and
# required-unavailable) become notifications and failures.
for pair in "bevy_v3|examples/bevy-v3.animsmith.toml|examples/assets/walk.glb" \
    "unity_fbx|examples/unity.animsmith.toml|examples/assets/unity-root.fbx"; do
    IFS='|' read -r _ cfg input <<<"$pair"
    [[ -f $cfg && -f $input ]] && cases+=("$pair")
done

run_lint() { # CONFIG FORMAT ARGS... -> stdout; exit code of lint
    local cfg=$1 fmt=$2
    shift 2
    if [[ $cfg == - ]]; then
        "$bin" lint --format "$fmt" "$@" 2>/dev/null
    else
        "$bin" --config "$cfg" lint --format "$fmt" "$@" 2>/dev/null
    fi
}

"$bin" checks --format json >"$tmp/checks.json" || { echo "animsmith checks failed"; exit 1; }
logs=()
for c in "${cases[@]}"; do
    IFS='|' read -r name cfg argline <<<"$c"
    if [[ $name == space ]]; then
        args=("$argline")
    else
        read -r -a args <<<"$argline"
    fi
    run_lint "$cfg" sarif "${args[@]}" >"$tmp/$name.sarif"
    code_sarif=$?
    run_lint "$cfg" json "${args[@]}" >"$tmp/$name.json"
    run_lint "$cfg" text "${args[@]}" >/dev/null
    code_text=$?
    if [[ $code_sarif != "$code_text" || $code_sarif == 2 ]]; then
        echo "$name: sarif exit $code_sarif, text exit $code_text"
        fail=1
        continue
    fi
    python3 - "$tmp/$name.sarif" "$tmp/$name.json" "$tmp/checks.json" "$name" <<'PY' || fail=1
import json, sys, urllib.parse
sarif_path, json_path, checks_path, name = sys.argv[1:5]
log = json.load(open(sarif_path, encoding="utf-8"))
rec = json.load(open(json_path, encoding="utf-8"))
catalog = [c["id"] for c in json.load(open(checks_path))["checks"]]
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
want(log.get("version") == "2.1.0", "version")
want(len(log["runs"]) == 1, "one run")
run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
want([r["id"] for r in rules] == catalog, "rules are not the catalog in order")
levels = {"error", "warning", "note"}
for r in rules:
    want(r["defaultConfiguration"]["level"] in levels, "rule level " + r["id"])
    want("docs/checks.md#" + r["id"] in r["help"]["text"], "rule help " + r["id"])
files = rec["files"]
arts = run["artifacts"]
want(len(arts) == len(files), "one artifact per file")
for i, (a, f) in enumerate(zip(arts, files)):
    uri = a["location"]["uri"]
    path = f["path"]
    if path.startswith("/"):
        want(uri == "file://" + urllib.parse.quote(path, safe="/-._~"), "absolute uri %r" % uri)
        want("uriBaseId" not in a["location"], "absolute path with a uriBaseId")
    else:
        rel = path[2:] if path.startswith("./") else path
        want(uri == urllib.parse.quote(rel, safe="/-._~"), "relative uri %r" % uri)
        want(a["location"].get("uriBaseId") == "SRCROOT", "relative path without SRCROOT")
        want("SRCROOT" in run.get("originalUriBaseIds", {}), "SRCROOT undescribed")
    want(a["hashes"]["sha-256"] == f["input"]["sha256"], "sha-256 of " + path)
    want(a["length"] == f["input"]["bytes"], "length of " + path)
findings, notes = [], []
for i, f in enumerate(files):
    for c in f["checks"]:
        for x in c["findings"]:
            findings.append((i, x))
        for g in c.get("gaps", []):
            notes.append((i, c["check_id"], "note", g["code"], g.get("scope")))
        for p in (c.get("prediction") or {}).get("facets", []):
            if p["state"] == "required_prediction_unavailable":
                notes.append((i, c["check_id"], "error", "required_prediction_unavailable",
                              p["scope"]))
results = run["results"]
want(len(results) == len(findings), "%d results for %d findings" % (len(results), len(findings)))
for (i, x), r in zip(findings, results):
    where = "result %s/%s" % (x["check_id"], x.get("clip"))
    want(r["ruleId"] == x["check_id"], where + " ruleId")
    want(rules[r["ruleIndex"]]["id"] == r["ruleId"], where + " ruleIndex")
    want(r["level"] == x["severity"], where + " level")
    loc = r["locations"][0]["physicalLocation"]
    want(loc["artifactLocation"]["index"] == i, where + " artifact index")
    want(loc["artifactLocation"]["uri"] == arts[i]["location"]["uri"], where + " uri")
    want(x["message"] in r["message"]["text"], where + " message")
    props = r.get("properties", {})
    for k in ("clip", "bone", "node", "time_s", "measured", "expected", "prediction_scope",
              "members"):
        want(props.get(k) == x.get(k), where + " property " + k)
    want(len(r["partialFingerprints"]["animsmithFinding/v1"]) == 64, where + " fingerprint")
fps = [(r["locations"][0]["physicalLocation"]["artifactLocation"]["index"],
        r["partialFingerprints"]["animsmithFinding/v1"]) for r in results]
want(len(set(fps)) == len(fps), "two results of one file share a fingerprint")
inv = run["invocations"]
want(len(inv) == 1 and inv[0]["executionSuccessful"] is True, "one successful invocation")
got = inv[0]["toolExecutionNotifications"]
want(len(got) == len(notes), "%d notifications for %d gaps and facets" % (len(got), len(notes)))
for (i, check, level, code, scope), n in zip(notes, got):
    where = "notification %s/%s" % (check, code)
    want(n["level"] == level, where + " level")
    want(n["descriptor"]["id"] == code, where + " descriptor")
    want(n["associatedRule"]["id"] == check, where + " rule")
    want(rules[n["associatedRule"]["index"]]["id"] == check, where + " rule index")
    want(n.get("properties", {}).get("scope") == scope, where + " scope")
    want(n["locations"][0]["physicalLocation"]["artifactLocation"]["index"] == i,
         where + " artifact")
for b in bad:
    print("%s: %s" % (name, b))
sys.exit(1 if bad else 0)
PY
    logs+=("$tmp/$name.sarif")
done

# Workers never change a byte.
run_lint examples/walk.animsmith.toml sarif --jobs 1 examples/assets >"$tmp/library1.sarif"
cmp -s "$tmp/library1.sarif" "$tmp/library.sarif" ||
    { echo "--jobs 1 and --jobs 2 SARIF differ"; fail=1; }
python3 -c 'import json,sys; sys.exit(0 if len(json.load(open(sys.argv[1]))["runs"][0]["artifacts"]) > 5 else 1)' \
    "$tmp/library.sarif" || { echo "the library run linted too few files"; fail=1; }

# --allow is refused: machine evidence keeps every finding.
err=$("$bin" lint --format sarif --allow quat-flip examples/assets/clip-dirty.glb 2>&1 >/dev/null)
code=$?
[[ $code == 2 && $err == *"--allow is not supported with --format sarif"* ]] ||
    { echo "--allow with sarif: exit $code: $err"; fail=1; }

if ((fail)); then
    echo "FAIL: SARIF disagrees with lint JSON"
    exit 1
fi
echo "ok: ${#logs[@]} SARIF logs agree with lint JSON"

if ! sarif_multitool_find; then
    echo "skipped: $SARIF_MULTITOOL_MISSING"
    exit 77
fi

# The validator must flag a broken log (a ruleIndex past the rules).
python3 - "$tmp/walk_dirty.sarif" "$tmp/broken.sarif" <<'PY'
import json, sys
log = json.load(open(sys.argv[1]))
log["runs"][0]["results"][0]["ruleIndex"] = 999
json.dump(log, open(sys.argv[2], "w"), indent=2)
PY
# validator_findings LOG: "LEVEL RULE FILE" per validator result.
validator_findings() {
    python3 - "$1" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = {r["id"]: r for r in run.get("tool", {}).get("driver", {}).get("rules", [])}
arts = run.get("artifacts", [])
for r in run.get("results", []):
    level = r.get("level") or rules.get(r["ruleId"], {}).get("defaultConfiguration", {}).get("level", "warning")
    loc = (r.get("locations") or [{}])[0].get("physicalLocation", {}).get("artifactLocation", {})
    uri = loc.get("uri") or (arts[loc["index"]]["location"]["uri"] if "index" in loc else "?")
    print(level, r["ruleId"], uri.rsplit("/", 1)[-1])
for inv in run.get("invocations", []):
    for n in inv.get("toolExecutionNotifications", []) + inv.get("toolConfigurationNotifications", []):
        if n.get("level", "warning") == "error":
            print("error", "notification", n.get("message", {}).get("text", "")[:200].replace("\n", " "))
PY
}
sarif_multitool_validate "$tmp/broken-check.sarif" "$tmp/broken.sarif" >"$tmp/broken.log" 2>&1
if ! validator_findings "$tmp/broken-check.sarif" 2>/dev/null | grep -q '^error SARIF1009 '; then
    echo "the SARIF Multitool did not flag a ruleIndex past the rules:"
    cat "$tmp/broken.log"
    exit 1
fi

sarif_multitool_validate "$tmp/validation.sarif" "${logs[@]}" >"$tmp/validation.log" 2>&1
if [[ ! -s $tmp/validation.sarif ]]; then
    echo "the SARIF Multitool wrote no log:"
    cat "$tmp/validation.log"
    exit 1
fi
validator_findings "$tmp/validation.sarif" >"$tmp/findings.txt"
if grep -v '^warning SARIF2005 ' "$tmp/findings.txt"; then
    echo "the SARIF Multitool reports the findings above"
    fail=1
fi
for log in "${logs[@]}"; do
    n=$(grep -c " SARIF2005 $(basename "$log")\$" "$tmp/findings.txt")
    [[ $n == 1 ]] || { echo "$(basename "$log"): analysed $n times (expected once)"; fail=1; }
done
if ((fail)); then
    echo "FAIL: SARIF Multitool validation"
    exit 1
fi
echo "ok: the SARIF Multitool $SARIF_MULTITOOL_VERSION validates ${#logs[@]} logs"
