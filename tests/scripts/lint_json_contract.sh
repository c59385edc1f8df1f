#!/usr/bin/env bash
# `lint --format json` on every example asset parses and carries every field
# the JSON output contract names for the envelope, file records, check records
# and findings; every summary partition sums to its total.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$1/animsmith
src=$2
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
fail=0
for f in "$src"/examples/assets/*.glb; do
    cfg=()
    name=$(basename "$f" .glb)
    for c in "$src/examples/$name.animsmith.toml" "$src/examples/${name%-dirty}.animsmith.toml"; do
        [[ -f $c ]] && { cfg=(--config "$c"); break; }
    done
    json=$("$bin" "${cfg[@]}" lint --format json "$f")
    code=$?
    if [[ $code -gt 1 ]]; then echo "FAIL $f: exit $code"; fail=1; continue; fi
    if ! printf '%s' "$json" | python3 -c '
import json, sys
doc = json.load(sys.stdin)
def need(obj, keys, where):
    missing = [k for k in keys if k not in obj]
    if missing:
        raise SystemExit(f"{where}: missing {missing}")
need(doc, ["schema_version", "schema", "tool", "command", "summary", "files"], "envelope")
assert doc["schema_version"] == 19 and doc["schema"] == "urn:animsmith:schema:output:19", "schema"
assert doc["command"] == "lint"
need(doc["tool"], ["name", "version", "source"], "tool")
need(doc["tool"]["source"], ["revision", "dirty"], "tool.source")
s = doc["summary"]
need(s, ["files", "findings", "checks", "prediction_facets"], "summary")
c = s["checks"]
for part in ("selection", "configuration", "applicability", "evaluation"):
    assert sum(c[part].values()) == c["total"], f"summary.checks.{part} does not sum to total"
assert len(doc["files"]) == s["files"]
counts = {"error": 0, "warning": 0, "note": 0}
gaps = 0
for f in doc["files"]:
    need(f, ["path", "input", "rig", "measurements", "prediction_provenance", "checks"], "file")
    need(f["input"], ["sha256", "bytes"], "input")
    need(f["rig"], ["profile", "resolution_outcome", "resolved_roles", "resolved_role_policies"], "rig")
    need(f["measurements"], ["schema_version", "schema", "clips"], "measurements")
    assert f["prediction_provenance"] is None
    assert len(f["checks"]) == c["total"]
    for r in f["checks"]:
        need(r, ["check_id", "selection", "configuration", "applicability", "evaluation", "findings"], "check")
        gaps += len(r.get("gaps", []))
        if r["evaluation"] == "partial":
            assert r.get("gaps") and r.get("evaluated_scopes"), f"{r['check_id']}: partial without gap+scope"
        for g in r.get("gaps", []):
            need(g, ["code", "message"], "gap")
        for x in r["findings"]:
            need(x, ["check_id", "severity", "message"], "finding")
            assert x["check_id"] == r["check_id"]
            counts[x["severity"]] += 1
assert counts == s["findings"], f"findings {counts} != summary {s['findings']}"
assert gaps == c["gaps"], "gap count"
'; then
        echo "FAIL $f"
        fail=1
    fi
done
exit $fail
