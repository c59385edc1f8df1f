#!/usr/bin/env bash
# `lint --format json` on every example asset parses and carries every field
# the JSON output contract names for the envelope, file records, check records
# and findings; every summary partition sums to its total. Under each
# example engine profile, the prediction provenance and every facet keep the
# contract too: summary counts, lifecycle, and findings bound to an
# available facet.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$1/animsmith
src=$2
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
fail=0
runs=()
for f in "$src"/examples/assets/*.glb; do
    cfg=-
    name=$(basename "$f" .glb)
    for c in "$src/examples/$name.animsmith.toml" "$src/examples/${name%-dirty}.animsmith.toml"; do
        [[ -f $c ]] && { cfg=$c; break; }
    done
    runs+=("$cfg" "$f")
done
e=$src/examples
runs+=("$e/bevy.animsmith.toml" "$e/assets/walk.glb" "$e/bevy-v2.animsmith.toml" "$e/assets/walk.glb"
       "$e/bevy-v3.animsmith.toml" "$e/assets/walk-dirty.glb"
       "$e/unity.animsmith.toml" "$e/assets/unity-root.fbx"
       "$e/unreal.animsmith.toml" "$e/assets/unreal-boundary.fbx"
       "$e/godot.animsmith.toml" "$e/assets/walk.glb")
for ((i = 0; i < ${#runs[@]}; i += 2)); do
    cfg=()
    [[ ${runs[i]} != - ]] && cfg=(--config "${runs[i]}")
    f=${runs[i + 1]}
    export PROFILED=0
    # Godot has a profile but no engine-backed check: provenance, no facets.
    [[ ${runs[i]} == "$e/"bevy* || ${runs[i]} == "$e/"unity* || ${runs[i]} == "$e/"unreal* ]] &&
        PROFILED=1
    [[ ${runs[i]} == "$e/"godot* ]] && PROFILED=2
    json=$("$bin" "${cfg[@]}" lint --format json "$f" 2>/dev/null)
    code=$?
    if [[ $code -gt 1 ]]; then echo "FAIL $f: exit $code"; fail=1; continue; fi
    if ! printf '%s' "$json" | python3 -c '
import json, os, sys
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
facets = [0, 0]
for f in doc["files"]:
    need(f, ["path", "input", "rig", "measurements", "prediction_provenance", "checks"], "file")
    need(f["input"], ["sha256", "bytes"], "input")
    need(f["rig"], ["profile", "resolution_outcome", "resolved_roles", "resolved_role_policies"], "rig")
    need(f["measurements"], ["schema_version", "schema", "clips"], "measurements")
    prov = f["prediction_provenance"]
    if os.environ["PROFILED"] != "0":
        assert isinstance(prov, dict) and prov["schema"].startswith("urn:animsmith:prediction-provenance:"), "provenance"
    else:
        assert prov is None
    assert len(f["checks"]) == c["total"]
    for r in f["checks"]:
        need(r, ["check_id", "selection", "configuration", "applicability", "evaluation", "findings"], "check")
        gaps += len(r.get("gaps", []))
        if r["evaluation"] == "partial":
            blocked = [x for x in (r.get("prediction") or {}).get("facets", [])
                       if x["state"] != "available"]
            assert (r.get("gaps") or blocked) and r.get("evaluated_scopes"), \
                "%s: partial without gap or unavailable facet, and scope" % r["check_id"]
        for g in r.get("gaps", []):
            need(g, ["code", "message"], "gap")
        pred = r.get("prediction")
        avail = []
        if pred:
            assert pred["schema"].startswith("urn:animsmith:engine-prediction:"), "prediction schema"
            n_av = n_un = 0
            for x in pred["facets"]:
                need(x, ["scope", "state", "basis"], "facet")
                if x["state"] == "available":
                    n_av += 1
                    assert x["result"]["kind"] and x["basis"] and "reasons" not in x, "available facet"
                    avail.append((x["scope"]["code"], x["scope"].get("subject")))
                else:
                    assert x["state"] == "required_prediction_unavailable" and x["reasons"], "unavailable facet"
                    assert "result" not in x
                    n_un += 1
            facets[0] += n_av
            facets[1] += n_un
            scopes = [(y["code"], y.get("subject")) for y in r.get("evaluated_scopes", [])]
            assert all(a in scopes for a in avail), "available facets are evaluated scopes"
            want = ("complete" if not n_un and not r.get("gaps") else
                    "partial" if scopes else "not_evaluated")
            assert r["evaluation"] == want, "%s: evaluation %s != %s" % (r["check_id"], r["evaluation"], want)
        for x in r["findings"]:
            need(x, ["check_id", "severity", "message"], "finding")
            assert x["check_id"] == r["check_id"]
            if pred:
                ps = x["prediction_scope"]
                assert (ps["code"], ps.get("subject")) in avail, "finding bound to an available facet"
            counts[x["severity"]] += 1
assert counts == s["findings"], f"findings {counts} != summary {s['findings']}"
assert gaps == c["gaps"], "gap count"
pf = s["prediction_facets"]
assert [pf["available"], pf["required_prediction_unavailable"]] == facets, f"facets {facets} != {pf}"
if os.environ["PROFILED"] == "1":
    assert sum(facets) > 0, "a profiled run predicts something"
'; then
        echo "FAIL $f"
        fail=1
    fi
done
exit $fail
