#!/usr/bin/env bash
# `lint --format junit` is JUnit XML that CI servers read, and it says what
# lint JSON says.
#
# Several example assets and contracts (glTF and FBX, findings of every
# severity, coverage gaps, an engine profile, --deny-warnings, a directory
# linted with one and two jobs) are linted as JUnit and as JSON.
#
# 1. Always (needs python3): each report parses, and against the JSON of
#    the same run: one <testsuite> per file named by its path; one
#    <testcase> per (check, clip) of every selected, enabled and applicable
#    check; a case fails exactly when it holds a finding at the fail level
#    (error; warning with --deny-warnings) or a required-unavailable facet,
#    and every such finding is in its failure text; the tests, failures,
#    errors and skipped counts are those of the cases; the exit code is the
#    text run's. --jobs never changes a byte; --allow is refused.
# 2. xmllint (Debian's libxml2-utils, which scripts/bootstrap installs)
#    validates every report against tests/schemas/junit.xsd, and must
#    reject a report broken on purpose. Without xmllint the script reports
#    part 1 and exits 77 (skipped).
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$src" || exit 1
schema=$src/tests/schemas/junit.xsd

{ cat examples/walk.animsmith.toml
  printf '\n[engine]\nprofile = "bevy"\nprofile_revision = 1\nengine_version = "0.19.0"\nimporter = "gltf-asset-loader"\n'
} >"$tmp/bevy.toml"
# NAME|CONFIG (or -)|ARGS...
cases=(
    "walk_dirty|examples/walk.animsmith.toml|examples/assets/walk-dirty.glb"
    "walk_clean|examples/walk.animsmith.toml|examples/assets/walk.glb"
    "deny_warnings|examples/walk.animsmith.toml|--deny-warnings examples/assets/walk.glb"
    "clip_dirty|-|examples/assets/clip-dirty.glb"
    "run_ring|examples/run-ring.animsmith.toml|examples/assets/run-ring.glb"
    "members_fbx|examples/character.animsmith.toml|examples/assets/mixamo-walk.fbx"
    "bevy|$tmp/bevy.toml|examples/assets/walk.glb examples/assets/walk-dirty.glb"
    "select|examples/walk.animsmith.toml|--select loop-closure,nan examples/assets/walk-dirty.glb"
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

reports=()
for c in "${cases[@]}"; do
    IFS='|' read -r name cfg argline <<<"$c"
    read -r -a args <<<"$argline"
    run_lint "$cfg" junit "${args[@]}" >"$tmp/$name.xml"
    code_junit=$?
    run_lint "$cfg" json "${args[@]}" >"$tmp/$name.json"
    run_lint "$cfg" text "${args[@]}" >/dev/null
    code_text=$?
    if [[ $code_junit != "$code_text" || $code_junit == 2 ]]; then
        echo "$name: junit exit $code_junit, text exit $code_text"
        fail=1
        continue
    fi
    deny=0
    [[ " ${args[*]} " == *" --deny-warnings "* ]] && deny=1
    python3 - "$tmp/$name.xml" "$tmp/$name.json" "$deny" "$name" <<'PY' || fail=1
import json, sys
import xml.etree.ElementTree as ET
xml_path, json_path, deny, name = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4]
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
try:
    root = ET.parse(xml_path).getroot()
except ET.ParseError as e:
    print("%s: not well-formed XML: %s" % (name, e))
    sys.exit(1)
rec = json.load(open(json_path, encoding="utf-8"))
fail_at = ("error", "warning") if deny else ("error",)
want(root.tag == "testsuites" and root.get("name") == "animsmith lint", "root element")
suites = root.findall("testsuite")
want(len(suites) == len(rec["files"]), "one testsuite per file")
totals = [0, 0]
for suite, f in zip(suites, rec["files"]):
    path = f["path"]
    want(suite.get("name") == path, "suite name %r" % suite.get("name"))
    # The expected cases: (check, clip) -> [failing findings, unavailable facets, gaps only]
    expect = {}
    for c in f["checks"]:
        if (c["selection"], c["configuration"], c["applicability"]) != \
                ("selected", "enabled", "applicable"):
            continue
        cases = {}
        def case(label):
            return cases.setdefault(label, {"fail": [], "facets": [], "gaps": 0, "other": 0})
        for x in c["findings"]:
            k = case(x.get("clip"))
            if x["severity"] in fail_at:
                k["fail"].append(x)
            else:
                k["other"] += 1
        for s in c.get("evaluated_scopes", []):
            case(s.get("subject"))["other"] += 1
        for g in c.get("gaps", []):
            case((g.get("scope") or {}).get("subject"))["gaps"] += 1
        for p in (c.get("prediction") or {}).get("facets", []):
            if p["state"] == "required_prediction_unavailable":
                case(p["scope"].get("subject"))["facets"].append(p)
        if not cases:
            case(None)
        for label, k in cases.items():
            expect[c["check_id"] if label is None else "%s [%s]" % (c["check_id"], label)] = k
    got = suite.findall("testcase")
    names = [t.get("name") for t in got]
    want(sorted(names) == sorted(expect), "%s: cases %s, expected %s" % (path, names, sorted(expect)))
    failures = skipped = 0
    for t in got:
        k = expect.get(t.get("name"))
        if k is None:
            continue
        want(t.get("classname") == path, "classname of " + t.get("name"))
        fl = t.findall("failure")
        sk = t.findall("skipped")
        should_fail = bool(k["fail"] or k["facets"])
        should_skip = not should_fail and k["gaps"] and not k["other"]
        want(bool(fl) == should_fail, "%s: failing is %s" % (t.get("name"), bool(fl)))
        want(bool(sk) == bool(should_skip), "%s: skipped is %s" % (t.get("name"), bool(sk)))
        text = "".join(x.text or "" for x in fl)
        for x in k["fail"]:
            want(x["message"] in text, "%s: failure lacks %r" % (t.get("name"), x["message"]))
        types = sorted(x.get("type") for x in fl)
        if k["facets"]:
            want("required_prediction_unavailable" in types, t.get("name") + ": facet failure")
        if k["fail"]:
            worst = "error" if any(x["severity"] == "error" for x in k["fail"]) else "warning"
            want(worst in types, "%s: failure types %s" % (t.get("name"), types))
        failures += bool(fl)
        skipped += bool(sk)
    want(suite.get("tests") == str(len(got)), path + ": tests count")
    want(suite.get("failures") == str(failures), path + ": failures count")
    want(suite.get("skipped") == str(skipped), path + ": skipped count")
    want(suite.get("errors") == "0", path + ": errors count")
    totals[0] += len(got)
    totals[1] += failures
want(root.get("tests") == str(totals[0]), "total tests")
want(root.get("failures") == str(totals[1]), "total failures")
want(root.get("errors") == "0", "total errors")
for b in bad:
    print("%s: %s" % (name, b))
sys.exit(1 if bad else 0)
PY
    reports+=("$tmp/$name.xml")
done

run_lint examples/walk.animsmith.toml junit --jobs 1 examples/assets >"$tmp/library1.xml"
cmp -s "$tmp/library1.xml" "$tmp/library.xml" || { echo "--jobs 1 and --jobs 2 JUnit differ"; fail=1; }
[[ $(grep -c '<testsuite ' "$tmp/library.xml") -gt 5 ]] ||
    { echo "the library run linted too few files"; fail=1; }

err=$("$bin" lint --format junit --allow quat-flip examples/assets/clip-dirty.glb 2>&1 >/dev/null)
code=$?
[[ $code == 2 && $err == *"--allow is not supported with --format junit"* ]] ||
    { echo "--allow with junit: exit $code: $err"; fail=1; }

if ((fail)); then
    echo "FAIL: JUnit disagrees with lint JSON"
    exit 1
fi
echo "ok: ${#reports[@]} JUnit reports agree with lint JSON"

if ! command -v xmllint >/dev/null 2>&1; then
    echo "skipped: xmllint not found (Debian package libxml2-utils)"
    exit 77
fi
# The schema must reject a case without a name.
sed 's/<testcase classname="\([^"]*\)" name="[^"]*"/<testcase classname="\1"/' \
    "$tmp/walk_dirty.xml" >"$tmp/broken.xml"
if xmllint --noout --schema "$schema" "$tmp/broken.xml" >/dev/null 2>&1; then
    echo "xmllint accepts a test case without a name: the schema check is not running"
    exit 1
fi
for r in "${reports[@]}"; do
    xmllint --noout --schema "$schema" "$r" 2>"$tmp/xmllint.err" ||
        { echo "$(basename "$r") is not valid JUnit XML:"; cat "$tmp/xmllint.err"; fail=1; }
done
if ((fail)); then
    echo "FAIL: JUnit schema validation"
    exit 1
fi
echo "ok: xmllint validates ${#reports[@]} reports against tests/schemas/junit.xsd"
