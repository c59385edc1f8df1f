#!/usr/bin/env bash
# `animsmith mesh-quality residual` against an independent reference:
# tests/scripts/meshq_reference.py (Python, stdlib only, written from the
# formulas of docs/mesh-quality.md) checks itself on hand-computed cases,
# generates 240 seeded random flat requests (grid triangulations of the UV
# square, a fine source and a coarser or differently split candidate with
# vertices at uv * frame exactly, shares over 2 to 5 bones on the 6-decimal
# grid, random envelopes and bounds, a few requests the contract refuses),
# runs each through the binary with --format json and compares the row's
# state, refusal code, value, verdict, worst sample, both sums and every
# bone's share of them, weightField, sampleGap and the uncarried samples.
# Rounded figures must agree exactly, or within 1e-6 when the unrounded
# reference sits within 1e-9 of a rounding half-step. Skipped (77) without
# python3.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
command -v python3 >/dev/null || { echo "python3 not found; skipped"; exit 77; }
ref=$src/tests/scripts/meshq_reference.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
python3 "$ref" selftest || fail=1
count=240
python3 "$ref" generate 20261203 "$count" "$tmp/req" || exit 1
n=0
for req in "$tmp"/req/req-*.json; do
    "$bin" mesh-quality residual "$req" --format json >"$tmp/out.json" 2>"$tmp/err"
    code=$?
    if [[ $code != 0 && $code != 1 ]]; then
        echo "$(basename "$req"): exit $code: $(cat "$tmp/err")"
        cp "$req" "/tmp/meshq-failed-$(basename "$req")"
        fail=1
        continue
    fi
    if ! python3 "$ref" compare "$req" "$tmp/out.json"; then
        echo "  input kept as /tmp/meshq-failed-$(basename "$req")"
        cp "$req" "/tmp/meshq-failed-$(basename "$req")"
        fail=1
    fi
    n=$((n + 1))
done
[[ $fail == 0 ]] && echo "ok   $n random mesh-quality requests agree with the reference"
exit $fail
