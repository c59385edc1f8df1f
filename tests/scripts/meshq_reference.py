#!/usr/bin/env python3
"""An independent reference for `animsmith mesh-quality residual` (flat, 2-D).

Written from the formulas of docs/mesh-quality.md, not from the C: the
sample set (art pixel centres at alpha >= threshold in row order, then the
source hull vertices' UVs), the UV carriers (the triangle holding the UV,
edges included with a tolerance of 1e-12 on the barycentrics, the lowest
triangle index on a shared edge), per bone the interpolated share
w_k = sum_i b_i w_ik and the moment s_k = sum_i b_i w_ik (x_i - p), the
covariance sum sum_k eps_k |ds_k| and the lever sum
sum_k |dw_k| (eps_k |p - c_k| + tau_k) per sample, their largest over the
samples both meshes carry, r6 rounding (floor(x * 1e6 + 0.5) / 1e6), the
worst sample, the weight-field diagnostic (l1, lInf) and the sample gap.

Standard library only. Subcommands:

  residual INPUT.json          print the reference reading as JSON
  generate SEED COUNT DIR      write COUNT random requests DIR/req-NNN.json
  compare INPUT.json REPORT.json
                               check a mesh-quality-report/1 document
                               against the reference (exit 1 on a mismatch)
  selftest                     hand-computed cases of the reference itself
"""
import json
import math
import os
import random
import sys

BARY_TOL = 1e-12
WEIGHT_SUM_SLACK = 5e-7
R6_HALF_STEP = 5e-7


def r6(x):
    return math.floor(x * 1e6 + 0.5) / 1e6


def near_half_step(x, tol=1e-9):
    """True when x sits within tol of a 6-decimal rounding half-step, where
    two correct implementations may round to neighbouring figures."""
    scaled = x * 1e6
    frac = scaled - math.floor(scaled)
    return abs(frac - 0.5) * 1e-6 <= tol


# ---- carriers ---------------------------------------------------------------

def barycentric(a, b, c, q):
    """(ba, bb, bc) of q in triangle a b c, or None for a degenerate one."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    fx, fy = c[0] - a[0], c[1] - a[1]
    det = ex * fy - ey * fx
    if det == 0:
        return None
    qx, qy = q[0] - a[0], q[1] - a[1]
    s = (qx * fy - qy * fx) / det   # along a->b
    t = (ex * qy - ey * qx) / det   # along a->c
    return (1.0 - s - t, s, t)


def carrier(mesh, uv):
    """(triangle, corners, bary) or None; raises ValueError('overlap') when
    uv lies strictly inside one triangle and in another too."""
    uvs = mesh["uvs"]
    tris = mesh["triangles"]
    found = []
    for t in range(len(tris) // 3):
        corners = tris[3 * t:3 * t + 3]
        pts = [(uvs[2 * v], uvs[2 * v + 1]) for v in corners]
        bary = barycentric(pts[0], pts[1], pts[2], uv)
        if bary is None:
            continue
        if all(x >= -BARY_TOL for x in bary):
            found.append((t, corners, bary))
    if not found:
        return None
    if len(found) > 1 and any(all(x > BARY_TOL for x in f[2]) for f in found):
        raise ValueError("overlap")
    return found[0]


def terms(mesh, car, index):
    """p, and per bone index w_k and s_k."""
    _t, corners, bary = car
    pts = mesh["points"]
    px = sum(bary[i] * pts[corners[i]][0] for i in range(3))
    py = sum(bary[i] * pts[corners[i]][1] for i in range(3))
    K = len(index)
    wbar = [0.0] * K
    mom = [[0.0, 0.0] for _ in range(K)]
    for i in range(3):
        v = corners[i]
        for bind in mesh["weights"][v]:
            k = index.get(bind["bone"])
            if k is None:
                continue
            bw = bary[i] * bind["weight"]
            wbar[k] += bw
            mom[k][0] += bw * (pts[v][0] - px)
            mom[k][1] += bw * (pts[v][1] - py)
    return (px, py), wbar, mom


# ---- the reading ------------------------------------------------------------

def samples_of(req):
    art = req["art"]
    w, h = art["width"], art["height"]
    out = []
    for y in range(h):
        for x in range(w):
            if art["alpha"][y * w + x] >= art["threshold"]:
                out.append({"uv": ((x + 0.5) / w, (y + 0.5) / h), "pixel": [x, y]})
    n_art = len(out)
    src = req["skinning"]["source"]["mesh"]
    for v in range(src["hull"]):
        out.append({"uv": (src["uvs"][2 * v], src["uvs"][2 * v + 1]), "vertex": v})
    return out, n_art


def reading(req):
    sk = req["skinning"]
    if sk is None:
        return {"state": "none"}
    src = sk["source"]["mesh"]
    cand = req["candidate"]
    env = sk["envelope"]
    samples, n_art = samples_of(req)
    base = {"samples": len(samples), "art": n_art}

    def refused(code):
        return dict(base, state="refused", code=code)

    def unmeasurable(why):
        return dict(base, state="not-measurable", why=why)

    for t in sk["deform"]:
        if any(k["kind"] != "setup" for k in t["keys"]):
            return refused("SKINNING_DEFORM_UNSUPPORTED")
    if src["weights"] is None or cand["weights"] is None:
        if src["weights"] is None and cand["weights"] is None:
            return unmeasurable("unweighted")
        return refused("SKINNING_UNWEIGHTED")
    declared = {b["bone"] for b in env["bones"]}
    bound = set()
    for label, mesh in (("source", src), ("candidate", cand)):
        for binds in mesh["weights"]:
            for b in binds:
                if label == "source":
                    bound.add(b["bone"])
                if b["bone"] != env["reference"] and b["bone"] not in declared:
                    return refused("SKINNING_BONE_NOT_DECLARED")
    if any(b["bone"] not in bound for b in env["bones"]):
        return refused("SKINNING_BONE_UNKNOWN")
    for mesh in (src, cand):
        for binds in mesh["weights"]:
            if abs(sum(b["weight"] for b in binds) - 1) > WEIGHT_SUM_SLACK:
                return refused("SKINNING_WEIGHT_SUM")
    fw, fh = req["frame"]["width"], req["frame"]["height"]
    slack = (2 * R6_HALF_STEP * (1 + fw), 2 * R6_HALF_STEP * (1 + fh))
    vertex_gap = 0.0
    for mesh in (src, cand):
        for v, p in enumerate(mesh["points"]):
            dx = abs(p[0] - mesh["uvs"][2 * v] * fw)
            dy = abs(p[1] - mesh["uvs"][2 * v + 1] * fh)
            vertex_gap = max(vertex_gap, math.hypot(dx, dy))
            if dx > slack[0] or dy > slack[1]:
                return refused("SKINNING_SETUP_MISMATCH")
    if n_art < req["art"]["minArtSamples"]:
        return unmeasurable("floor")
    try:
        cs = [carrier(src, s["uv"]) for s in samples]
        cc = [carrier(cand, s["uv"]) for s in samples]
    except ValueError:
        return refused("SKINNING_UV_CARRIER_NOT_UNIQUE")

    bones = [b["bone"] for b in env["bones"]] + [env["reference"]]
    index = {name: k for k, name in enumerate(bones)}
    eps = [b["linear"] for b in env["bones"]] + [0.0]
    tau = [b["translation"] for b in env["bones"]] + [0.0]
    piv = [tuple(b["pivot"]) for b in env["bones"]] + [(0.0, 0.0)]
    K = len(bones)
    per = []   # (sample index, total, cov[], lev[])
    l1max = linfmax = gap = 0.0
    for j, s in enumerate(samples):
        if cs[j] is None or cc[j] is None:
            continue
        p, wr, mr = terms(src, cs[j], index)
        q, wc, mc = terms(cand, cc[j], index)
        gap = max(gap, math.hypot(q[0] - p[0], q[1] - p[1]))
        cov = []
        lev = []
        l1 = linf = 0.0
        for k in range(K):
            dw = abs(wc[k] - wr[k])
            l1 += dw
            linf = max(linf, dw)
            cov.append(eps[k] * math.hypot(mc[k][0] - mr[k][0], mc[k][1] - mr[k][1]))
            lev.append(dw * (eps[k] * math.hypot(p[0] - piv[k][0], p[1] - piv[k][1]) + tau[k]))
        l1max = max(l1max, l1)
        linfmax = max(linfmax, linf)
        per.append((j, sum(cov) + sum(lev), cov, lev))
    unc_s = [j for j in range(len(samples)) if cs[j] is None]
    unc_c = [j for j in range(len(samples)) if cc[j] is None]
    if not per:
        return unmeasurable("uncarried")
    worst = per[0]
    for row in per:
        if row[1] > worst[1]:
            worst = row
    return dict(base, state="measured", raw=worst[1], value=r6(worst[1]),
                worst=worst[0], per=per, bones=bones[:-1], l1=l1max, linf=linfmax,
                sampleGap=gap, vertexGap=vertex_gap, measured=len(per),
                uncarried=(unc_s, unc_c), samples_list=samples,
                bound=sk["maxResidual"])


# ---- comparing a report -----------------------------------------------------

class Mismatch(Exception):
    pass


def same_rounded(label, got, raw, problems):
    want = r6(raw)
    if got == want:
        return
    if abs(got - want) <= 1e-6 * (1 + 1e-9) and near_half_step(raw):
        return
    problems.append(f"{label}: report {got!r}, reference {want!r} (unrounded {raw!r})")


def compare(req, report):
    ref = reading(req)
    problems = []
    rows = report.get("rows", [])
    if ref["state"] == "none":
        if rows:
            problems.append("a request without skinning got a row")
        return problems
    if len(rows) != 1:
        return [f"expected one row, got {len(rows)}"]
    row = rows[0]
    if row.get("state") != ref["state"]:
        return [f"state: report {row.get('state')!r}, reference {ref['state']!r} "
                f"({ref.get('code') or ref.get('why')}); reason {row.get('reason')!r}"]
    if row.get("samples") != ref["samples"] or row.get("art") != ref["art"]:
        problems.append(f"samples/art: report {row.get('samples')}/{row.get('art')}, "
                        f"reference {ref['samples']}/{ref['art']}")
    if ref["state"] == "refused":
        if row.get("code") != ref["code"]:
            problems.append(f"code: report {row.get('code')!r}, reference {ref['code']!r}")
        return problems
    if ref["state"] != "measured":
        return problems
    same_rounded("value", row["value"], ref["raw"], problems)
    bound = ref["bound"]
    verdict = "undeclared" if bound is None else ("pass" if row["value"] <= bound else "fail")
    if row.get("verdict") != verdict:
        problems.append(f"verdict: report {row.get('verdict')!r}, expected {verdict!r}")
    sk = row["skinning"]
    if sk["samples"]["measured"] != ref["measured"]:
        problems.append(f"samples.measured: report {sk['samples']['measured']}, "
                        f"reference {ref['measured']}")
    unc = sk["samples"]["uncarried"]
    for name, idx in (("source", ref["uncarried"][0]), ("candidate", ref["uncarried"][1])):
        want = [list(ref["samples_list"][j]["uv"]) for j in idx]
        if [list(map(float, u)) for u in unc[name]] != want:
            problems.append(f"uncarried.{name}: report {unc[name]}, reference {want}")
    same_rounded("weightField.l1", sk["weightField"]["l1"], ref["l1"], problems)
    same_rounded("weightField.lInf", sk["weightField"]["lInf"], ref["linf"], problems)
    same_rounded("setup.sampleGap", sk["setup"]["sampleGap"], ref["sampleGap"], problems)
    if row["value"] == 0:
        if sk["worst"] is not None or row["worst"]["at"] != {}:
            problems.append("value 0 with a worst sample")
        return problems
    # The worst sample: any sample whose total is within 1e-9 of the
    # largest may be the one a correct implementation keeps.
    at = row["worst"]["at"]
    candidates = [r for r in ref["per"] if r[1] >= ref["raw"] - 1e-9]
    chosen = None
    for r in candidates:
        s = ref["samples_list"][r[0]]
        key = {"pixel": s["pixel"]} if "pixel" in s else {"vertex": s["vertex"]}
        if all(at.get(k) == v for k, v in key.items()) and \
                list(map(float, at.get("uv", []))) == list(s["uv"]):
            chosen = r
            break
    if chosen is None:
        best = ref["samples_list"][ref["worst"]]
        problems.append(f"worst.at: report {at}, reference {best}")
        return problems
    _j, _total, cov, lev = chosen
    w = sk["worst"]
    same_rounded("worst.covariance", w["covariance"], sum(cov), problems)
    same_rounded("worst.lever", w["lever"], sum(lev), problems)
    if [b["bone"] for b in w["bones"]] != ref["bones"]:
        problems.append(f"worst.bones: report {[b['bone'] for b in w['bones']]}, "
                        f"reference {ref['bones']}")
    else:
        for k, b in enumerate(w["bones"]):
            same_rounded(f"worst.bones[{k}].covariance", b["covariance"], cov[k], problems)
            same_rounded(f"worst.bones[{k}].lever", b["lever"], lev[k], problems)
    return problems


# ---- random requests ----------------------------------------------------------

def grid_mesh(rng, nx, ny, frame, u1=1.0, v1=1.0):
    """A triangulated grid over [0, u1] x [0, v1]: boundary vertices first
    (the hull, counter-clockwise from (0, 0)), then the interior; each cell
    split along a random diagonal. Points are uv * frame exactly."""
    coords = [(i, j) for j in range(ny + 1) for i in range(nx + 1)]
    boundary = ([(i, 0) for i in range(nx)] + [(nx, j) for j in range(ny)] +
                [(i, ny) for i in range(nx, 0, -1)] + [(0, j) for j in range(ny, 0, -1)])
    bset = set(boundary)
    order = boundary + [c for c in coords if c not in bset]
    at = {c: n for n, c in enumerate(order)}
    uvs = []
    points = []
    for (i, j) in order:
        u = u1 * i / nx
        v = v1 * j / ny
        uvs += [u, v]
        points.append([u * frame[0], v * frame[1]])
    tris = []
    for j in range(ny):
        for i in range(nx):
            a, b, c, d = at[(i, j)], at[(i + 1, j)], at[(i + 1, j + 1)], at[(i, j + 1)]
            if rng.random() < 0.5:
                tris += [a, b, c, a, c, d]
            else:
                tris += [a, b, d, b, c, d]
    return {"points": points, "uvs": uvs, "triangles": tris, "hull": len(boundary)}


def random_weights(rng, bones, count):
    """One binding list per vertex over 1..len(bones) of the bones, shares
    on the 6-decimal grid summing to 1."""
    out = []
    for _ in range(count):
        chosen = rng.sample(bones, rng.randint(1, len(bones)))
        cuts = sorted(rng.randint(0, 1000000) for _ in range(len(chosen) - 1))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [1000000])]
        out.append([{"bone": name, "weight": part / 1e6} for name, part in zip(chosen, parts)])
    return out


def resampled(src, bones, uv):
    car = carrier(src, uv)
    _p, wbar, _m = terms(src, car, {name: k for k, name in enumerate(bones)})
    micro = [round(w * 1e6) for w in wbar]
    micro[max(range(len(micro)), key=lambda k: micro[k])] += 1000000 - sum(micro)
    return [{"bone": name, "weight": m / 1e6} for name, m in zip(bones, micro) if m > 0]


def random_request(rng, n):
    fw = rng.choice([16, 32, 48, 64, 100, 128, 37])
    fh = rng.choice([16, 24, 32, 64, 50, 29])
    names = ["root", "upper", "lower", "hand", "tip", "spare"]
    count = rng.randint(2, 5)
    bones = names[:count]
    reference = rng.choice(bones) if rng.random() < 0.7 else "slot"
    nx, ny = rng.randint(2, 6), rng.randint(2, 6)
    src = grid_mesh(rng, nx, ny, (fw, fh))
    src["weights"] = random_weights(rng, bones, len(src["points"]))
    # Every bone the envelope declares is bound by the source somewhere.
    for k, name in enumerate(bones):
        if not any(b["bone"] == name for binds in src["weights"] for b in binds):
            src["weights"][k % len(src["weights"])] = [{"bone": name, "weight": 1.0}]
    if rng.random() < 0.1:
        # A candidate over part of the square: some samples are uncarried.
        u1 = rng.choice([0.5, 0.75])
        cand = grid_mesh(rng, rng.randint(1, 3), rng.randint(1, 3), (fw, fh), u1, 1.0)
    else:
        cand = grid_mesh(rng, rng.randint(1, nx), rng.randint(1, ny), (fw, fh))
    if rng.random() < 0.5:
        cand_bones = rng.sample(bones, rng.randint(1, count))
        cand["weights"] = random_weights(rng, cand_bones, len(cand["points"]))
    else:
        # The source's field read at each candidate vertex, put back on the
        # weight grid: the small residuals a real reduction makes.
        cand["weights"] = [resampled(src, bones, (cand["uvs"][2 * v], cand["uvs"][2 * v + 1]))
                           for v in range(len(cand["points"]))]
    aw, ah = rng.randint(2, 10), rng.randint(2, 10)
    alpha = [rng.choice([0, 0.25, 0.5, 1]) for _ in range(aw * ah)]
    env_bones = []
    for name in bones:
        if name == reference:
            continue
        env_bones.append({"bone": name,
                          "linear": round(rng.uniform(0, 1.2), rng.choice([3, 6, 9])),
                          "pivot": [round(rng.uniform(0, fw), 2), round(rng.uniform(0, fh), 2)],
                          "translation": round(rng.uniform(0, 4), 3) if rng.random() < 0.7 else 0})
    rng.shuffle(env_bones)
    bound = rng.choice([None, 0.5, 2, 5, 10, 1000])
    req = {
        "attachment": {"skin": "default", "slot": "arm", "attachment": f"arm{n}"},
        "frame": {"width": fw, "height": fh},
        "art": {"width": aw, "height": ah, "alpha": alpha, "threshold": 0.5, "minArtSamples": 1},
        "candidate": cand,
        "skinning": {
            "source": {"id": f"arm-full-{n}", "mesh": src},
            "envelope": {"reference": reference, "bones": env_bones},
            "maxResidual": bound,
            "deform": [],
        },
    }
    # A few requests the contract refuses, to compare the order of checks.
    roll = rng.random()
    if roll < 0.03:
        cand["weights"][0] = [{"bone": "stranger", "weight": 1.0}]
    elif roll < 0.06:
        src["weights"][-1] = [{"bone": bones[0], "weight": 0.9}]
    elif roll < 0.09:
        cand["points"][-1] = [cand["points"][-1][0] + 0.01, cand["points"][-1][1]]
    elif roll < 0.11:
        req["skinning"]["deform"] = [{"animation": "wave", "attachment": req["attachment"],
                                      "keys": [{"time": 0, "kind": "setup"},
                                               {"time": 1, "kind": "vertices"}]}]
    elif roll < 0.13:
        req["art"]["minArtSamples"] = aw * ah + 1
    return req


# ---- self-test ----------------------------------------------------------------

def selftest():
    # One triangle in each mesh, a 10 x 10 frame, the sample a vertex:
    # source weights all "upper", candidate moves half of vertex 0 to root.
    tri = {"points": [[0, 0], [10, 0], [0, 10]], "uvs": [0, 0, 1, 0, 0, 1],
           "triangles": [0, 1, 2], "hull": 3}
    src = dict(tri, weights=[[{"bone": "upper", "weight": 1}]] * 3)
    cand = dict(tri, weights=[[{"bone": "upper", "weight": 0.5}, {"bone": "root", "weight": 0.5}],
                              [{"bone": "upper", "weight": 1}], [{"bone": "upper", "weight": 1}]])
    req = {"attachment": {"skin": None, "slot": "s", "attachment": "a"},
           "frame": {"width": 10, "height": 10},
           "art": {"width": 1, "height": 1, "alpha": [0], "threshold": 0.5, "minArtSamples": 0},
           "candidate": cand,
           "skinning": {"source": {"id": "s", "mesh": src},
                        "envelope": {"reference": "root",
                                     "bones": [{"bone": "upper", "linear": 0.5,
                                                "pivot": [3, 4], "translation": 1}]},
                        "maxResidual": None, "deform": []}}
    got = reading(req)
    assert got["state"] == "measured", got
    # At vertex 0 (b = 1, 0, 0): s = 0 in both meshes, dw = 0.5,
    # lever = 0.5 * (0.5 * |(0,0) - (3,4)| + 1) = 0.5 * 3.5 = 1.75. At the
    # other vertices dw = 0.
    assert got["worst"] == 0 and abs(got["raw"] - 1.75) < 1e-15, got["raw"]
    assert r6(0.0000005) == 0.000001 and r6(1.2345674) == 1.234567
    print("ok   meshq_reference selftest")


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    cmd = argv[1]
    if cmd == "residual":
        with open(argv[2]) as f:
            r = reading(json.load(f))
        r.pop("samples_list", None)
        print(json.dumps(r, default=list))
        return 0
    if cmd == "generate":
        seed, count, out = int(argv[2]), int(argv[3]), argv[4]
        rng = random.Random(seed)
        os.makedirs(out, exist_ok=True)
        for n in range(count):
            with open(os.path.join(out, f"req-{n:03d}.json"), "w") as f:
                json.dump(random_request(rng, n), f)
        return 0
    if cmd == "compare":
        with open(argv[2]) as f:
            req = json.load(f)
        with open(argv[3]) as f:
            report = json.load(f)
        problems = compare(req, report)
        for p in problems:
            print(f"{argv[2]}: {p}")
        return 1 if problems else 0
    if cmd == "selftest":
        selftest()
        return 0
    print(f"meshq_reference.py: unknown subcommand {cmd!r} (see --help)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
