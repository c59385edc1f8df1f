#!/usr/bin/env bash
# `animsmith report --lod` without a browser, on a skinned sphere authored
# with `animsmith model` and its plain half: the page's mesh_quality has
# the documented shape; the half's row is measured with the value
# `mesh-quality residual --envelope-from-clips` reads (> 0) and its
# largest-first worst samples, each placed on a written primitive so that
# skinning its three vertices with the rest pose's joint matrices and
# blending them by its weights lands on the sample's bind position; the
# sphere against itself reads 0 with no marks; a sphere without UVs is a
# not-measurable row with its reason and no value; an evidence-only page
# keeps the rows and drops the marks' geometry. A candidate with other
# meshes, one that cannot be read, --lod with --compare-after and an
# output that is the candidate are refused: exit 2, one line naming the
# file, an existing output untouched.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
if ! command -v python3 >/dev/null; then
    echo "skipped: python3 not found"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
# shellcheck source=lib/expect_exit.sh
. "$src/tests/scripts/lib/expect_exit.sh"
# shellcheck source=lib/lod_fixture.sh
. "$src/tests/scripts/lib/lod_fixture.sh"
lod_fixture "$tmp" || exit 1

cat >check.py <<'PY'
import base64
import json
import re
import struct
import sys

FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL " + what)
    return cond


def data_of(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="animsmith-report-data">(.*?)</script>',
                  text, re.S)
    return json.loads(m.group(1))


def f32(b64):
    raw = base64.b64decode(b64)
    return struct.unpack("<%df" % (len(raw) // 4), raw)


ROW_KEYS = {"mesh", "state", "value", "code", "reason", "triangles", "samples", "marks"}
MARK_KEYS = {"sample", "value", "uv", "position", "primitive", "vertices", "bary"}


def shape(d, path, candidate):
    mq = d.get("mesh_quality")
    if not check(isinstance(mq, dict), path + ": no mesh_quality object"):
        return None
    check(set(mq) == {"candidate", "envelope", "rows"}, path + ": mesh_quality keys %s" % sorted(mq))
    check(mq["candidate"] == candidate, path + ": candidate %r" % mq["candidate"])
    check(mq["envelope"] == "clips", path + ": envelope %r" % mq["envelope"])
    check(len(mq["rows"]) == 1, path + ": %d rows, want 1" % len(mq["rows"]))
    for r in mq["rows"]:
        check(set(r) == ROW_KEYS, path + ": row keys %s" % sorted(r))
        check(r["mesh"] == "body", path + ": row mesh %r" % r["mesh"])
        for m in r["marks"]:
            check(set(m) == MARK_KEYS, path + ": mark keys %s" % sorted(m))
    return mq["rows"][0]


def measured(path, candidate, want_value, evidence=False):
    d = data_of(path)
    r = shape(d, path, candidate)
    if r is None:
        return
    check(r["state"] == "measured" and r["code"] is None and r["reason"] is None,
          path + ": state %r code %r" % (r["state"], r["code"]))
    check(r["value"] == want_value, path + ": value %r, mesh-quality reads %r" % (r["value"], want_value))
    t, s = r["triangles"], r["samples"]
    check(t["source"] == 2976, path + ": source triangles %r" % t["source"])
    check(0 < s["measured"] <= s["total"], path + ": samples %r" % s)
    marks = r["marks"]
    if want_value == 0:
        check(t["candidate"] == t["source"], path + ": triangles %r" % t)
        check(marks == [], path + ": %d marks where the meshes agree" % len(marks))
        return
    check(t["candidate"] < t["source"], path + ": no reduction %r" % t)
    check(1 <= len(marks) <= 16, path + ": %d marks" % len(marks))
    check(marks[0]["value"] == r["value"], path + ": the first mark %r is not the row's value" % marks[0]["value"])
    check(all(a["value"] >= b["value"] > 0 for a, b in zip(marks, marks[1:])),
          path + ": marks not largest first")
    check(all(0 <= m["sample"] < s["total"] for m in marks), path + ": a mark's sample is out of range")
    check(len({m["sample"] for m in marks}) == len(marks), path + ": a sample marked twice")
    if evidence:
        check(d["mesh"] is None, path + ": an evidence-only page carries a mesh")
        check(all(m["position"] is None and m["primitive"] is None and m["vertices"] is None and
                  m["bary"] is None for m in marks), path + ": an evidence-only mark carries geometry")
        return
    mesh = d["mesh"]
    mb = len(mesh["matrix_bones"])
    rest = f32(d["rest_pose"]["bone_matrices"])
    check(len(rest) == 16 * mb, path + ": rest-pose matrices")
    worst = 0.0
    for m in marks:
        if not check(isinstance(m["primitive"], int) and 0 <= m["primitive"] < len(mesh["primitives"]),
                     path + ": mark of sample %d has no drawn primitive" % m["sample"]):
            continue
        p = mesh["primitives"][m["primitive"]]
        n = p["vertex_count"]
        check(len(m["vertices"]) == 3 and all(0 <= v < n for v in m["vertices"]),
              path + ": mark vertices %r" % m["vertices"])
        check(abs(sum(m["bary"]) - 1) < 1e-9 and all(b >= -1e-9 for b in m["bary"]),
              path + ": mark weights %r" % m["bary"])
        pos, wts = f32(p["positions"]), f32(p["weights"])
        raw = base64.b64decode(p["joints"])
        jts = struct.unpack("<%dH" % (len(raw) // 2), raw)
        skin = mesh["skins"][p["skin"]]
        ibm = f32(skin["inverse_bind"])
        # Skinned like the mesh: sum_k b_k sum_i w_i (B[slot] IBM_j) x_k.
        got = [0.0, 0.0, 0.0]
        for v, b in zip(m["vertices"], m["bary"]):
            x = pos[3 * v:3 * v + 3] + (1.0,)
            for i in range(4):
                w, j = wts[4 * v + i], jts[4 * v + i]
                if w == 0:
                    continue
                I = ibm[16 * j:16 * j + 16]
                q = [sum(I[c * 4 + r] * x[c] for c in range(4)) for r in range(4)]
                B = rest[16 * skin["joints"][j]:16 * skin["joints"][j] + 16]
                for r in range(3):
                    got[r] += b * w * sum(B[c * 4 + r] * q[c] for c in range(4))
        worst = max(worst, max(abs(g - e) for g, e in zip(got, m["position"])))
    check(worst < 1e-4, path + ": a mark skinned at rest lands %.3g m off its bind position" % worst)


def unmeasured(path, candidate):
    r = shape(data_of(path), path, candidate)
    if r is None:
        return
    check(r["state"] == "not-measurable", path + ": state %r" % r["state"])
    check(r["value"] is None, path + ": an unmeasured row has value %r" % r["value"])
    check(isinstance(r["reason"], str) and "TEXCOORD_0" in r["reason"], path + ": reason %r" % r["reason"])
    check(r["marks"] == [] and r["samples"]["measured"] is None, path + ": an unmeasured row has marks")


def strip_uvs(src, dst):
    """A copy of a GLB whose primitives lose TEXCOORD_0 (the buffers stay)."""
    raw = open(src, "rb").read()
    n = struct.unpack_from("<I", raw, 12)[0]
    doc = json.loads(raw[20:20 + n])
    rest = raw[20 + n:]
    for me in doc["meshes"]:
        for pr in me["primitives"]:
            pr["attributes"].pop("TEXCOORD_0", None)
    js = json.dumps(doc).encode()
    js += b" " * (-len(js) % 4)
    body = struct.pack("<II", len(js), 0x4E4F534A) + js + rest
    open(dst, "wb").write(struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body)


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "measured":
        measured(sys.argv[2], sys.argv[3], float(sys.argv[4]), len(sys.argv) > 5)
    elif mode == "unmeasured":
        unmeasured(sys.argv[2], sys.argv[3])
    elif mode == "strip":
        strip_uvs(sys.argv[2], sys.argv[3])
    sys.exit(1 if FAILS else 0)
PY

# value FILE: the first "value": of a mesh-quality-report/1 document.
value() { grep -o '"value": *[-0-9.e+]*' "$1" | head -1 | sed 's/.*: *//'; }

"$bin" mesh-quality residual ball.glb half.glb --envelope-from-clips --format json >mq.json
want=$(value mq.json)
[[ -n $want ]] || { echo "FAIL mesh-quality residual read no value"; fail=1; }

expect "report --lod half" 0 "$bin" report ball.glb -o half.html --lod half.glb
grep -qx "wrote half.html (1 clip(s), [0-9]* finding(s), [0-9.]* MB)" out ||
    { echo "FAIL wrote line: $(head -1 out)"; fail=1; }
line=$(sed -n 2p out)
[[ $line =~ ^"  mesh quality of half.glb: 1 of 1 mesh(es) measured, largest residual "([0-9.]+)" m"$ ]] ||
    { echo "FAIL mesh-quality line: $line"; fail=1; }
python3 -c "import sys; sys.exit(abs(float('${BASH_REMATCH[1]:-nan}') - float('$want')) > 5e-7)" ||
    { echo "FAIL the line's residual '${BASH_REMATCH[1]:-}' is not mesh-quality's $want"; fail=1; }
python3 check.py measured half.html half.glb "$want" || fail=1
python3 -c "import sys; sys.exit(not float('$want') > 0)" ||
    { echo "FAIL the half reads $want, want > 0"; fail=1; }

expect "report --lod itself" 0 "$bin" report ball.glb -o same.html --lod ball.glb
python3 check.py measured same.html ball.glb 0 || fail=1

expect "report --lod --evidence-only" 0 "$bin" report ball.glb -o ev.html --lod half.glb \
    --evidence-only
python3 check.py measured ev.html half.glb "$want" evidence || fail=1

# No UVs, nothing to sample: the row says so, with no value.
python3 check.py strip ball.glb bare.glb && python3 check.py strip half.glb bare-half.glb
expect "report --lod without UVs" 0 "$bin" report bare.glb -o bare.html --lod bare-half.glb
grep -q "^  mesh quality of bare-half.glb: none of 1 mesh(es) measured" out ||
    { echo "FAIL the unmeasured line: $(sed -n 2p out)"; fail=1; }
python3 check.py unmeasured bare.html bare-half.glb || fail=1

# Refusals: exit 2, one line naming the file, the output as it was.
refused() {
    local what=$1 name=$2
    shift 2
    echo keep >kept.html
    expect "$what" 2 "$bin" "$@"
    [[ $(cat kept.html) == keep ]] || { echo "FAIL $what: the output was replaced"; fail=1; }
    [[ $(wc -l <"$tmp/err") == 1 && $(cat "$tmp/err") == *"$name"* ]] ||
        { echo "FAIL $what: stderr is not one line naming $name: $(cat "$tmp/err")"; fail=1; }
}
cp "$src/examples/assets/walk.glb" other.glb
refused "a candidate with other meshes" other.glb report ball.glb -o kept.html --lod other.glb
refused "a missing candidate" missing.glb report ball.glb -o kept.html --lod missing.glb
printf 'glTF not really' >broken.glb
refused "an unreadable candidate" broken.glb report ball.glb -o kept.html --lod broken.glb
refused "--lod with --compare-after" --compare-after report ball.glb -o kept.html --lod half.glb \
    --compare-after half.glb --before-clip sway --after-clip sway
refused "a source without a skinned mesh" other.glb report other.glb -o kept.html --lod half.glb
cp half.glb out.glb
expect "the output is the candidate" 2 "$bin" report ball.glb -o out.glb --lod out.glb
cmp -s half.glb out.glb || { echo "FAIL the candidate was overwritten"; fail=1; }
exit $fail
