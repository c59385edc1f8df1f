#!/usr/bin/env bash
# The HTML report without a browser: the walk-dirty report, its evidence-
# only twin, the before/after comparison (and its evidence-only twin), the
# run-ring report whole and with --clip run_left, a clip and file name
# made of markup, and (with the corpus) a skinned mesh. Each run's stdout
# line is pinned; each page is one file that refers to nothing outside
# itself (no src/href but #... or data:, no <link>, no @import, no CSS
# url() but data:, no http(s):// outside the embedded data and namespace
# names, the Content-Security-Policy meta); its embedded JSON parses and
# has the documented shape; its findings and gaps are those of `lint
# --format json` on the same file and contract, in the same order, each
# finding's target frame is round(t / duration * (N - 1)); its positions
# decode to frames * bones * 3 floats whose first/last frame distance per
# bone is measure's loop_continuity position delta; every chart figure has
# a viewBox, role="img", an aria-label, a caption, a legend and playhead
# markup spanning its clip's frames. Evidence only: no pose stream keys at
# all, mesh null, the charts kept (single) or replaced by the notice
# (comparison). Two takes of one name: their findings refuse to select.
# Markup in names reaches the page only escaped. The same input gives the
# same bytes.
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
fail=0

# The page checker: python3 "$tmp/check.py" MODE HTML ...
cat >"$tmp/check.py" <<'PY'
import base64
import html
import json
import math
import re
import struct
import sys
from html.parser import HTMLParser

FAILS = []
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
       "img-src data:")
DATA_OPEN = '<script type="application/json" id="animsmith-report-data">'
# Namespace names identify a vocabulary; nothing ever fetches them.
NAMESPACES = ("http://www.w3.org/2000/svg", "http://www.w3.org/1999/xhtml",
              "http://www.w3.org/1999/xlink")
VOID = {"meta", "link", "br", "img", "input", "hr", "source", "area", "base", "col",
        "embed", "track", "wbr", "param"}


def check(cond, what):
    if not cond:
        FAILS.append(what)
        if len(FAILS) <= 25:
            print("FAIL " + what)
        elif len(FAILS) == 26:
            print("FAIL ... (further failures not shown)")
    return cond


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], []

    def cls(self):
        return (self.attrs.get("class") or "").split()

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def find(self, pred):
        return [n for n in self.walk() if pred(n)]

    def all_text(self):
        return "".join(self.text) + "".join(c.all_text() for c in self.children)


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.cur = self.root
        self.attr_lists = []          # every tag's raw attribute list

    def handle_starttag(self, tag, attrs):
        self.attr_lists.append((tag, attrs))
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        self.attr_lists.append((tag, attrs))
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.text.append(data)


class Page:
    """One report file: its text, DOM, embedded data and viewer script."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            raw = f.read()
        self.text = raw.decode("utf-8")
        dom = Dom()
        dom.feed(self.text)
        dom.close()
        self.dom, self.root = dom, dom.root
        scripts = self.root.find(lambda n: n.tag == "script")
        self.data_scripts = [s for s in scripts if s.attrs.get("id") == "animsmith-report-data"]
        self.code_scripts = [s for s in scripts if "type" not in s.attrs]
        self.raw_json = self.data_scripts[0].all_text() if len(self.data_scripts) == 1 else "null"
        self.data = json.loads(self.raw_json)
        self.js = "".join(s.all_text() for s in self.code_scripts)
        # The page with the viewer code cut out (its own text may name tags).
        self.markup = self.text
        for s in self.code_scripts:
            self.markup = self.markup.replace(s.all_text(), "")
        self.figures = self.root.find(lambda n: n.tag == "figure" and "chart" in n.cls())


def f32s(b64):
    raw = base64.b64decode(b64, validate=True)
    check(len(raw) % 4 == 0, "stream length is a whole number of f32")
    return struct.unpack("<%df" % (len(raw) // 4), raw)


def keys_exact(obj, want, what):
    return check(isinstance(obj, dict) and set(obj) == set(want),
                 "%s has keys %s, want %s" % (what, sorted(obj) if isinstance(obj, dict)
                                              else type(obj).__name__, sorted(want)))


# ---- self-contained -------------------------------------------------------

def check_offline(p):
    name = p.path
    check(p.text.startswith("<!doctype html>"), name + ": starts with <!doctype html>")
    check(len(p.data_scripts) == 1, name + ": exactly one embedded data script")
    check(p.text.count(DATA_OPEN) == 1, name + ": the data script opens exactly once")
    check(not re.search(r"[<>&]", p.raw_json),
          name + ": the embedded JSON has no raw < > & (written as \\u003c \\u003e \\u0026)")
    metas = [n for n in p.root.walk() if n.tag == "meta" and
             (n.attrs.get("http-equiv") or "").lower() == "content-security-policy"]
    check(len(metas) == 1 and metas[0].attrs.get("content") == CSP,
          name + ": one CSP meta with the contract's policy")
    head = p.text[:p.text.find("</head>")]
    check(0 <= head.find("Content-Security-Policy") < head.find("<style"),
          name + ": the CSP meta comes before the stylesheet")
    check(not p.root.find(lambda n: n.tag in ("link", "iframe", "object", "embed", "base",
                                              "img", "audio", "video", "source")),
          name + ": no <link>/<iframe>/<object>/<embed>/<base>/<img>/media element")
    for tag, attrs in p.dom.attr_lists:
        for k, v in attrs:
            v = v or ""
            if k in ("src", "href", "xlink:href", "action", "formaction", "poster", "srcset",
                     "background", "ping", "data"):
                check(v.startswith("#") or v.startswith("data:"),
                      "%s: <%s %s=%r> refers outside the page" % (name, tag, k, v[:60]))
            if k == "style":
                check("url(" not in v.replace("url(data:", ""),
                      "%s: a style attribute loads a url(): %r" % (name, v[:60]))
            if k.startswith("on"):
                check(False, "%s: <%s> has an inline handler %s" % (name, tag, k))
            if "http://" in v or "https://" in v:
                check(k == "xmlns" and v in NAMESPACES,
                      "%s: <%s %s=%r> names a URL" % (name, tag, k, v[:60]))
    scripts = p.root.find(lambda n: n.tag == "script")
    check(all(s.attrs.get("id") == "animsmith-report-data" or not s.attrs for s in scripts),
          name + ": every script is inline (no src, no module)")
    css = "".join(s.all_text() for s in p.root.find(lambda n: n.tag == "style"))
    check(css.strip() != "", name + ": the stylesheet is inline")
    check("@import" not in css, name + ": no @import in the CSS")
    check(not re.search(r"url\(\s*(?!['\"]?data:)", css), name + ": no url() but data: in the CSS")
    # URLs: only inside the embedded data's strings, or a namespace name.
    rest = p.text.replace(p.raw_json, "")
    for ns in NAMESPACES:
        rest = rest.replace('"%s"' % ns, "")
    check("http://" not in rest and "https://" not in rest,
          name + ": no http:// or https:// outside the data and namespace names")
    for api in ("fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon",
                "importScripts", "new Worker", "import(", "innerHTML", "outerHTML",
                "insertAdjacentHTML", "document.write", "eval(", "new Function"):
        check(api not in p.js, "%s: the viewer code uses %s" % (name, api))


# ---- charts ------------------------------------------------------------------

TIME_KINDS = {"foot-heights", "stance", "gait-group"}
PATH_KINDS = {"root-path", "trails", "shared-root"}


def check_figures(p, frames_of):
    """frames_of(figure) -> the frame count its playhead must span."""
    name = p.path
    ids = [f.attrs.get("id") for f in p.figures]
    check(len(ids) == len(set(ids)) and all(ids), name + ": chart figures have unique ids")
    for f in p.figures:
        fid = f.attrs.get("id")
        what = "%s: figure %s" % (name, fid)
        kind = f.attrs.get("data-kind")
        check(kind in TIME_KINDS | PATH_KINDS, what + " has a known data-kind (%r)" % kind)
        svgs = [c for c in f.children if c.tag == "svg"]
        if not check(len(svgs) == 1, what + " holds one svg"):
            continue
        svg = svgs[0]
        vb = (svg.attrs.get("viewbox") or "").split()
        check(len(vb) == 4 and all(re.fullmatch(r"-?[0-9.]+", v) for v in vb) and
              float(vb[2]) > 0 and float(vb[3]) > 0, what + " has a viewBox")
        check(svg.attrs.get("role") == "img", what + ' has role="img"')
        check((svg.attrs.get("aria-label") or "").strip() != "", what + " has an aria-label")
        caps = [c for c in f.children if c.tag == "figcaption"]
        check(len(caps) == 1 and caps[0].all_text().strip(), what + " has a figcaption")
        legend = svg.find(lambda n: "legend" in n.cls())
        series = svg.find(lambda n: n.tag == "g" and "series" in n.cls())
        heads = svg.find(lambda n: n.tag == "g" and "playhead" in n.cls())
        dots = svg.find(lambda n: n.tag == "g" and "playhead-dot" in n.cls())
        check(len(legend) == 1, what + " has one legend")
        if not series:
            # Nothing drawn (the roles did not resolve): the caption says
            # why, and no marker follows a series that is not there.
            check(not dots, what + " without a series has no path marker")
            continue
        check(legend and legend[0].find(lambda n: "legend-item" in n.cls() and
                                        n.find(lambda t: t.tag == "text" and t.all_text().strip())),
              what + " has a legend with labelled items")
        frames = frames_of(f)
        if kind in TIME_KINDS:
            check(heads and not dots, what + " (time axis) has a g.playhead")
            for h in heads:
                ok = all(re.fullmatch(r"-?[0-9.]+", h.attrs.get(k) or "")
                         for k in ("data-x0", "data-x1"))
                check(ok and float(h.attrs["data-x1"]) > float(h.attrs["data-x0"]),
                      what + " playhead has data-x0 < data-x1")
                want = frames(h) if callable(frames) else frames
                check(h.attrs.get("data-frames") == str(want),
                      what + " playhead spans %s frames (data-frames=%r)" % (want, h.attrs.get("data-frames")))
                check(h.find(lambda n: n.tag == "line"), what + " playhead draws a line")
        else:
            check(dots and not heads, what + " (path) has a g.playhead-dot")
            for d in dots:
                pts = (d.attrs.get("data-points") or "").split()
                want = frames(d) if callable(frames) else frames
                check(len(pts) == want and all(re.fullmatch(r"-?[0-9.]+,-?[0-9.]+", x) for x in pts),
                      what + " playhead-dot has one x,y point per frame (%d, want %s)" % (len(pts), want))
                check(d.find(lambda n: n.tag == "circle"), what + " playhead-dot draws a circle")


# ---- data ----------------------------------------------------------------------

FINDING_KEYS = ["index", "check_id", "severity", "clip", "bone", "node", "time_s", "measured",
                "expected", "message", "target"]
TARGET_KEYS = ["clip_index", "frame", "bone_index", "refusal"]
CLIP_KEYS = ["index", "name", "duration_s", "frame_count", "times", "declares", "figures"]


def lint_lists(lint_json, clip=None, clip_names=()):
    """The lint run's findings and gaps in record order (a --clip report keeps
    document-level ones and those of its clip)."""
    f = json.load(open(lint_json))["files"][0]
    finds, gaps = [], []
    for rec in f["checks"]:
        for x in rec.get("findings", []):
            if clip is None or x.get("clip") in (None, clip):
                finds.append(x)
        for g in rec.get("gaps", []):
            subj = (g.get("scope") or {}).get("subject")
            if clip is None or subj is None or subj not in clip_names or subj == clip:
                gaps.append(dict(g, check_id=rec["check_id"]))
    return f, finds, gaps


def lint_predictions(lint_json):
    """Every prediction facet of the lint run, as the report lists them."""
    f = json.load(open(lint_json))["files"][0]
    out = []
    for rec in f["checks"]:
        for x in (rec.get("prediction") or {}).get("facets", []):
            out.append({"check_id": rec["check_id"],
                        "scope": {"code": x["scope"]["code"],
                                  "subject": x["scope"].get("subject")},
                        "state": x["state"], "result": x.get("result"),
                        "reasons": x.get("reasons", [])})
    return out


def check_skeleton(what, skel, roles, lint_file):
    bones = skel["bones"]
    check(all(set(b) == {"name", "parent"} for b in bones), what + ": bones are {name, parent}")
    check(all(b["parent"] == -1 or 0 <= b["parent"] < i for i, b in enumerate(bones)),
          what + ": parents precede children")
    names = [b["name"] for b in bones]
    want = {r: names.index(b) for r, b in lint_file["rig"].get("resolved_roles", {}).items()
            if b in names}
    check(all(roles.get(r) == i for r, i in want.items()) and
          all(isinstance(i, int) and 0 <= i < len(bones) for i in roles.values()),
          what + ": roles match lint's resolved roles (%s vs %s)" % (roles, want))
    return names


def check_findings(what, got, want, clips, names, doc_clip_names):
    check(len(got) == len(want), "%s: %d findings, lint has %d" % (what, len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        fw = "%s: finding %d (%s)" % (what, i, w["check_id"])
        keys_exact(g, FINDING_KEYS, fw)
        check(g["index"] == i, fw + " index")
        for k in ("check_id", "severity", "clip", "bone", "node", "time_s", "measured",
                  "expected", "message"):
            check(g.get(k) == w.get(k), "%s %s: %r, lint %r" % (fw, k, g.get(k), w.get(k)))
        t = g["target"]
        keys_exact(t, TARGET_KEYS, fw + " target")
        by_name = [c for c in clips if c["name"] == g["clip"]]
        if g["clip"] is None:
            check(t == {"clip_index": None, "frame": None, "bone_index": None,
                        "refusal": "no_clip"}, fw + " document-level target is no_clip")
            continue
        bases = [base_name(n, doc_clip_names) for n in doc_clip_names]
        if g["clip"] in doc_clip_names and bases.count(base_name(g["clip"], doc_clip_names)) > 1:
            check(t["refusal"] == "ambiguous_clip", fw + " refuses an ambiguous clip")
            continue
        if not by_name:
            check(t["refusal"] == "missing_clip" and t["clip_index"] is None,
                  fw + " refuses a clip the report does not hold")
            continue
        c = by_name[0]
        check(t["refusal"] is None and t["clip_index"] == c["index"], fw + " targets its clip")
        if g["time_s"] is None:
            check(t["frame"] is None, fw + " without a time has no frame")
        else:
            n = c["frame_count"]
            fr = math.floor(g["time_s"] / c["duration_s"] * (n - 1) + 0.5)
            fr = min(max(fr, 0), n - 1)
            check(t["frame"] == fr, "%s frame %r, want round(t/d*(N-1)) = %d" % (fw, t["frame"], fr))
        want_bone = names.index(g["bone"]) if g["bone"] in names else None
        check(t["bone_index"] == want_bone, "%s bone_index %r, want %r" % (fw, t["bone_index"], want_bone))


def check_gaps(what, got, want):
    check(len(got) == len(want), "%s: %d gaps, lint has %d" % (what, len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        keys_exact(g, ["check_id", "code", "message", "scope"], "%s gap %d" % (what, i))
        for k in ("check_id", "code", "message"):
            check(g.get(k) == w.get(k), "%s gap %d %s: %r, lint %r" % (what, i, k, g.get(k), w.get(k)))
        ws = w.get("scope")
        gs = g.get("scope")
        check((gs is None and ws is None) or
              (gs and ws and gs.get("code") == ws.get("code") and gs.get("subject") == ws.get("subject")),
              "%s gap %d scope %r, lint %r" % (what, i, gs, ws))


def check_clip(what, c, index, bone_count, measured, evidence, comparison, mesh):
    extra = [] if evidence else ["positions", "bounds"] + ([] if comparison else ["local", "local_omission"])
    if mesh and not evidence:
        extra.append("bone_matrices")
    keys_exact(c, CLIP_KEYS + extra, what)
    check(c["index"] == index, what + " index")
    n = c["frame_count"]
    m = measured["clips"].get(c["name"])
    check(m is not None and m["frame_count"] == n and m["duration_s"] == c["duration_s"],
          what + ": frame_count and duration match measure")
    ts = c["times"]
    check(len(ts) == n and ts[0] == 0.0 and abs(ts[-1] - c["duration_s"]) < 1e-9 and
          all(a < b for a, b in zip(ts, ts[1:])), what + ": times are the judged grid")
    keys_exact(c["declares"], ["loop", "speed_mps", "movement_owner_xz"], what + " declares")
    if evidence:
        return
    pos = f32s(c["positions"])
    if not check(len(pos) == n * bone_count * 3,
                 "%s: positions hold %d floats, want %d*%d*3" % (what, len(pos), n, bone_count)):
        return
    lo = [min(pos[k::3]) for k in range(3)]
    hi = [max(pos[k::3]) for k in range(3)]
    check(all(abs(a - b) < 1e-6 for a, b in zip(lo + hi, c["bounds"]["min"] + c["bounds"]["max"])),
          what + ": bounds are the positions' extent")
    # The loop seam as measure reports it: first vs last grid frame, per bone.
    for row in (m or {}).get("loop_continuity", {}).get("bones", []):
        if row.get("availability") != "measured":
            continue
        b = row["bone_index"]
        p0 = pos[b * 3:b * 3 + 3]
        p1 = pos[((n - 1) * bone_count + b) * 3:((n - 1) * bone_count + b) * 3 + 3]
        d = math.dist(p0, p1)
        check(abs(d - row["position_delta_m"]) < 1e-6,
              "%s: bone %s first/last frame distance %.9f, measure %.9f" %
              (what, row["bone_name"], d, row["position_delta_m"]))
    if comparison:
        return
    if c["local"] is not None:
        loc = f32s(c["local"])
        check(len(loc) == n * bone_count * 10, what + ": local holds frame*bone*10 floats")
        check(all(abs(math.hypot(*loc[i + 3:i + 7]) - 1) < 1e-5 for i in range(0, len(loc), 10)),
              what + ": local rotations are unit quaternions")
        check(c["local_omission"] is None, what + ": no local omission with a local stream")
    else:
        check(isinstance(c["local_omission"], str) and c["local_omission"],
              what + ": an omitted local stream says why")


def find_keys(obj, keys, path="data"):
    """Paths of every member named in keys, anywhere in obj."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in keys:
                out.append(path + "." + k)
            out += find_keys(v, keys, path + "." + k)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += find_keys(v, keys, "%s[%d]" % (path, i))
    return out


def check_evidence_data(p):
    d = p.data
    check(d["evidence_only"] is True, p.path + ": evidence_only is true")
    leaks = find_keys(d, {"positions", "local", "bone_matrices", "bounds", "local_omission"})
    check(not leaks, p.path + ": no pose stream in the data (%s)" % leaks)
    meshes = find_keys(d, {"mesh"})
    check(all(d.get("mesh") is None for _ in meshes), p.path + ": mesh is null")
    check("evidence-only" in (p.root.find(lambda n: n.tag == "body")[0].cls()),
          p.path + ": body carries the evidence-only class")


# ---- the forms -------------------------------------------------------------------

def single(html_path, lint_json, measure_json, clip=None, evidence=False):
    p = Page(html_path)
    check_offline(p)
    d = p.data
    top = ["schema", "form", "evidence_only", "tool", "document", "skeleton", "roles", "clips",
           "findings", "gaps", "predictions", "mesh", "mesh_omission", "blend", "gait_groups"]
    # rest_pose (the bind-pose positions and matrices, beyond the written
    # contract) is a pose stream: never in an evidence-only page.
    if "rest_pose" in d and not evidence:
        top.append("rest_pose")
    keys_exact(d, top, html_path + " data")
    check(d["schema"] == "urn:animsmith:schema:html-report:1" and d["form"] == "single",
          html_path + ": schema and form")
    check(d["evidence_only"] is evidence, html_path + ": evidence_only")
    measured = json.load(open(measure_json))["files"][0]["measurements"]
    lf, finds, gaps = lint_lists(lint_json, clip, list(measured["clips"]))
    doc_clip_names = animation_names(lf["path"])
    check(d["tool"]["name"] == "animsmith" and d["tool"]["version"], html_path + ": tool")
    doc = d["document"]
    check(doc["sha256"] == lf["input"]["sha256"] and doc["bytes"] == lf["input"]["bytes"] and
          doc["path"] == lf["path"] and doc["profile"] == lf["rig"]["profile"],
          html_path + ": document identity matches lint's (%s)" % doc)
    names = check_skeleton(html_path, d["skeleton"], d["roles"], lf)
    want_clips = [clip] if clip else [n for n in doc_clip_names]
    check([c["name"] for c in d["clips"]] == want_clips,
          html_path + ": clips %s, want %s" % ([c["name"] for c in d["clips"]], want_clips))
    mesh = d["mesh"] is not None
    if "rest_pose" in d and not evidence:
        rp = d["rest_pose"]
        keys_exact(rp, ["positions", "bone_matrices"], html_path + " rest_pose")
        check(len(f32s(rp["positions"])) == 3 * len(names), html_path + ": rest_pose positions per bone")
        rest = f32s(rp["positions"])
        world = {n["name"]: n["rest_world_matrix"] for n in measured.get("skeleton_nodes", [])
                 if n.get("rest_world_matrix")}
        err = max([abs(rest[3 * b + k] - world[nm][12 + k]) for b, nm in enumerate(names)
                   if nm in world for k in range(3)] or [0.0])
        check(err < 1e-5, html_path + ": rest_pose positions are measure's rest world positions (%.2g)" % err)
        check((rp["bone_matrices"] is None) == (not mesh) and
              (not mesh or len(f32s(rp["bone_matrices"])) == 16 * len(d["mesh"]["matrix_bones"])),
              html_path + ": rest_pose bone_matrices exactly with a mesh")
    for i, c in enumerate(d["clips"]):
        check_clip("%s clip %d" % (html_path, i), c, i, len(names), measured, evidence, False, mesh)
    check_findings(html_path, d["findings"], finds, d["clips"], names, doc_clip_names)
    check_gaps(html_path, d["gaps"], gaps)
    check(d["predictions"] == lint_predictions(lint_json),
          html_path + ": the prediction facets are lint's, in record order")
    keys_exact(d["blend"], ["authority", "available", "omission"], html_path + " blend")
    check(d["blend"]["authority"] == "sampled-local-trs-blend-v1", html_path + ": blend authority")
    if evidence:
        check_evidence_data(p)
    # Figures: each clip's ids exist, carry its index and span its frames.
    by_id = {f.attrs.get("id"): f for f in p.figures}
    for c in d["clips"]:
        for fid in c["figures"]:
            f = by_id.get(fid)
            check(f is not None and f.attrs.get("data-clip") == str(c["index"]),
                  "%s: clip %s figure %s is in the page with its data-clip" % (html_path, c["name"], fid))
    clips = d["clips"]
    for g in d["gait_groups"]:
        keys_exact(g, ["name", "members", "figure"], html_path + " gait group")
        f = by_id.get(g["figure"])
        if not check(f is not None and f.attrs.get("data-kind") == "gait-group",
                     html_path + ": gait group %s has its figure" % g["name"]):
            continue
        want = ",".join(str(next((c["index"] for c in clips if c["name"] == m), -1))
                        for m in g["members"])
        check(f.attrs.get("data-members") == want,
              "%s: gait figure data-members %r, want %r" % (html_path, f.attrs.get("data-members"), want))
        label = f.find(lambda n: n.tag == "svg")[0].attrs.get("aria-label", "")
        legend = " ".join(n.all_text() for n in f.find(lambda n: "legend-item" in n.cls()))
        for m in g["members"]:
            check(m in label and m in legend,
                  "%s: gait figure names member %s in its label and legend" % (html_path, m))

    def frames_of(f):
        if f.attrs.get("data-kind") == "gait-group":
            return lambda h: clips[int(h.attrs.get("data-clip", "-1"))]["frame_count"]
        return clips[int(f.attrs.get("data-clip"))]["frame_count"]
    check_figures(p, frames_of)
    check(len(p.figures) == 2 * len(clips) + len(d["gait_groups"]),
          html_path + ": two figures per clip plus one per gait group")
    return p


def comparison(html_path, lint_before, lint_after, measure_before, measure_after, clips,
               evidence=False):
    p = Page(html_path)
    check_offline(p)
    d = p.data
    keys_exact(d, ["schema", "form", "evidence_only", "tool", "sides"], html_path + " data")
    check(d["form"] == "comparison" and d["evidence_only"] is evidence, html_path + ": form")
    keys_exact(d["sides"], ["before", "after"], html_path + " sides")
    frames = {}
    for label, lint_json, measure_json, clip in (("before", lint_before, measure_before, clips[0]),
                                                 ("after", lint_after, measure_after, clips[1])):
        s = d["sides"][label]
        what = "%s side %s" % (html_path, label)
        keys_exact(s, ["label", "identity", "skeleton", "roles", "clip", "findings", "gaps",
                       "predictions", "contexts", "stance", "anchor"], what)
        measured = json.load(open(measure_json))["files"][0]["measurements"]
        lf, finds, gaps = lint_lists(lint_json, clip, list(measured["clips"]))
        check(s.get("label") == label, what + ": label")
        check(s.get("anchor") == "finding-%s-" % label, what + ": anchor prefix")
        ident = s["identity"]
        check(ident.get("sha256") == lf["input"]["sha256"] and ident.get("bytes") == lf["input"]["bytes"]
              and "path" not in ident and ident.get("closure", {}).get("files") == 1 and
              re.fullmatch(r"[0-9a-f]{64}", ident.get("closure", {}).get("sha256", "")),
              what + ": identity is the file's digest and closure, no path")
        check(not find_keys(s, {"path"}), what + ": no path anywhere in the side")
        names = check_skeleton(what, s["skeleton"], s["roles"], lf)
        c = s["clip"]
        check(c["name"] == clip, what + ": the named clip")
        check_clip(what + " clip", c, 0, len(names), measured, evidence, True, False)
        check_findings(what, s["findings"], finds, [c], names, list(measured["clips"]))
        check_gaps(what, s["gaps"], gaps)
        check(s["predictions"] == lint_predictions(lint_json), what + ": prediction facets")
        seam = {"loop-closure", "loop-seam", "loop-seam-vel", "loop-seam-rot"}
        want_ctx = [{"finding": i, "kind": "loop_seam", "frames": [0, c["frame_count"] - 1]}
                    for i, f in enumerate(s["findings"]) if f["check_id"] in seam and f["clip"]]
        check(s["contexts"] == want_ctx, what + ": loop-seam contexts %s" % s["contexts"])
        st = s["stance"]
        check(st is None or (set(st) == {"left", "right"} and all(
            0 <= a <= b < c["frame_count"] for side in st.values() for a, b in side)),
            what + ": stance intervals are inclusive frame ranges")
        frames[label] = c["frame_count"]
    if evidence:
        check_evidence_data(p)
        check(not p.figures, html_path + ": an evidence-only comparison draws no panel")
        notice = ("Pose playback and illustrative blending are omitted in this evidence-only "
                  "report. No sampled positions or local transforms are embedded.")
        sec = [n for n in p.root.walk() if n.attrs.get("id") == "charts"]
        check(sec and notice in sec[0].all_text(), html_path + ": the charts section holds the notice")
        return p
    sides = {f.attrs.get("data-side") for f in p.figures}
    check(sides == {"before", "after", "shared"}, html_path + ": figures per side and shared")
    for label in ("before", "after"):
        for fid in d["sides"][label]["clip"]["figures"]:
            check(any(f.attrs.get("id") == fid for f in p.figures),
                  "%s: %s figure %s is in the page" % (html_path, label, fid))

    def frames_of(f):
        side = f.attrs.get("data-side")
        if side == "shared":
            return lambda dot: frames[dot.attrs.get("data-side")]
        return frames[side]
    check_figures(p, frames_of)
    return p


def markup(html_path, *names):
    """names: the clip names the page must hold exactly; a "raw:TEXT"
    argument is text (a file name's markup) that must not occur raw."""
    raws = [n[4:] for n in names if n.startswith("raw:")]
    names = [n for n in names if not n.startswith("raw:")]
    p = Page(html_path)
    for r in raws:
        check(r not in p.markup, html_path + ": %r occurs raw in the markup" % r)
    check_offline(p)
    check(not re.search(r"<img", p.markup, re.I), html_path + ": no raw <img outside the viewer code")
    check(not re.search(r"<script>alert", p.markup, re.I), html_path + ": no injected <script>")
    check(p.text.count("</script>") == 2, html_path + ": exactly two script elements close")
    got = [c["name"] for c in p.data["clips"]]
    check(got == list(names), html_path + ": the data holds the names exactly (%r)" % got)
    for f in p.figures:
        label = f.find(lambda n: n.tag == "svg")[0].attrs.get("aria-label", "")
        check(any(n in label for n in names),
              html_path + ": figure %s names its clip unescaped after parsing" % f.attrs.get("id"))
    for n in names:
        esc = html.escape(n, quote=True)
        check(esc in p.markup or esc.replace("&#x27;", "&#39;") in p.markup,
              html_path + ": the name appears escaped in the markup")
    return p


def glb_json(path):
    raw = open(path, "rb").read()
    magic, _, _ = struct.unpack_from("<III", raw, 0)
    assert magic == 0x46546C67
    n, kind = struct.unpack_from("<II", raw, 12)
    assert kind == 0x4E4F534A
    return json.loads(raw[20:20 + n])


def animation_names(path):
    """The document's clips in document order (unnamed ones are left out:
    these tests name every animation)."""
    g = glb_json(path) if path.endswith(".glb") else json.load(open(path))
    names, seen = [], {}
    for i, a in enumerate(g.get("animations", [])):
        n = a.get("name") or "animation%d" % i
        # A name held by an earlier take gets "#k" (k-th repeat), as inspect shows.
        k = seen.get(n, 0)
        seen[n] = k + 1
        names.append(n if k == 0 else "%s#%d" % (n, k))
    return names


def base_name(name, names):
    """The authored name of a loaded clip name ("walk#1" -> "walk")."""
    m = re.fullmatch(r"(.*)#[0-9]+", name)
    return m.group(1) if m and m.group(1) in names else name


def mesh(html_path, glb):
    p = Page(html_path)
    check_offline(p)
    d = p.data
    m = d["mesh"]
    if not check(m is not None, html_path + ": the skinned mesh is embedded (%s)" % d["mesh_omission"]):
        return
    keys_exact(m, ["matrix_bones", "skins", "primitives"], html_path + " mesh")
    g = glb_json(glb)
    want = [g["accessors"][pr["attributes"]["POSITION"]]["count"]
            for me in g["meshes"] for pr in me["primitives"]
            if "JOINTS_0" in pr["attributes"]]
    got = [pr["vertex_count"] for pr in m["primitives"]]
    check(got == want, html_path + ": primitive vertex counts %s, glTF %s" % (got, want))
    bones = len(d["skeleton"]["bones"])
    mb = m["matrix_bones"]
    check(all(0 <= b < bones for b in mb) and len(set(mb)) == len(mb), html_path + ": matrix_bones")
    for s in m["skins"]:
        check(all(0 <= j < len(mb) for j in s["joints"]), html_path + ": skin joints index matrix_bones")
        check(len(f32s(s["inverse_bind"])) == 16 * len(s["joints"]), html_path + ": inverse binds")
    for pr in m["primitives"]:
        n = pr["vertex_count"]
        check(len(f32s(pr["positions"])) == 3 * n, html_path + ": primitive positions")
        if pr["normals"] is not None:
            check(len(f32s(pr["normals"])) == 3 * n, html_path + ": primitive normals")
        joints = base64.b64decode(pr["joints"])
        check(len(joints) == 8 * n, html_path + ": primitive joints are u16 x4")
        js = struct.unpack("<%dH" % (4 * n), joints)
        joint_count = len(m["skins"][pr["skin"]]["joints"])
        check(all(j < joint_count for j in js), html_path + ": joint indices within the skin")
        w = f32s(pr["weights"])
        check(len(w) == 4 * n, html_path + ": primitive weights")
        idx = base64.b64decode(pr["indices"])
        ii = struct.unpack("<%dI" % (len(idx) // 4), idx)
        check(len(ii) == pr["index_count"] and len(ii) % 3 == 0 and all(i < n for i in ii),
              html_path + ": triangle indices within the primitive")
    for c in d["clips"]:
        mats = f32s(c["bone_matrices"])
        check(len(mats) == c["frame_count"] * len(mb) * 16,
              "%s: clip %s bone_matrices %d floats, want %d*%d*16" %
              (html_path, c["name"], len(mats), c["frame_count"], len(mb)))
        pos = f32s(c["positions"])
        # The matrices' translations are the model positions of the same bones.
        err = max(abs(mats[(f * len(mb) + j) * 16 + 12 + k] - pos[(f * bones + b) * 3 + k])
                  for f in range(c["frame_count"]) for j, b in enumerate(mb) for k in range(3))
        check(err < 1e-4, html_path + ": bone matrix translations are the bone positions (%.2g)" % err)


if __name__ == "__main__":
    mode, args = sys.argv[1], sys.argv[2:]
    opts = {}
    pos = []
    for a in args:
        if a.startswith("--") and "=" in a:
            k, v = a[2:].split("=", 1)
            opts[k] = v
        elif a == "--evidence":
            opts["evidence"] = True
        else:
            pos.append(a)
    if mode == "single":
        single(pos[0], pos[1], pos[2], opts.get("clip"), bool(opts.get("evidence")))
    elif mode == "comparison":
        comparison(pos[0], pos[1], pos[2], pos[3], pos[4], (pos[5], pos[6]),
                   bool(opts.get("evidence")))
    elif mode == "markup":
        markup(pos[0], *pos[1:])
    elif mode == "mesh":
        mesh(pos[0], pos[1])
    print(("FAIL %s: %d check(s) failed" % (mode, len(FAILS))) if FAILS else "ok   %s %s" % (mode, pos[0]))
    sys.exit(1 if FAILS else 0)
PY
check() { python3 "$tmp/check.py" "$@" || fail=1; }

# report NAME EXPECTED_LINE_REGEX ARGS...: runs `animsmith ARGS -o
# $tmp/NAME/report.html` from the source dir and pins its stdout (the
# line with the output path), stderr (empty), exit 0 and the one file.
report() {
    local name=$1 want=$2
    shift 2
    mkdir -p "$tmp/$name"
    local out=$tmp/$name/report.html
    "$bin" "$@" -o "$out" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local code=$?
    local got
    got=$(cat "$tmp/$name.out")
    if [[ $code != 0 || -s $tmp/$name.err ]]; then
        echo "FAIL $name: exit $code, stderr: $(cat "$tmp/$name.err")"
        fail=1
    elif [[ ! $got =~ ^wrote\ ${out//./\\.}\ $want$ ]]; then
        echo "FAIL $name: stdout '$got', want 'wrote $out $want'"
        fail=1
    elif [[ $(ls -A "$tmp/$name") != report.html ]]; then
        echo "FAIL $name: the report is not exactly one file: $(ls -A "$tmp/$name")"
        fail=1
    else
        echo "ok   $name: $got"
    fi
}
# facts NAME CONFIG FILE: lint and measure JSON of the same run.
facts() {
    "$bin" ${2:+--config "$2"} lint --format json "$3" >"$tmp/$1.lint.json"
    "$bin" ${2:+--config "$2"} measure --format json "$3" >"$tmp/$1.measure.json"
}

cd "$src" || exit 1
walk=(--config examples/walk.animsmith.toml report examples/assets/walk-dirty.glb)
cmpcfg=examples/report-comparison.animsmith.toml
pair=(--config "$cmpcfg" report examples/assets/report-comparison-before.glb
      --compare-after examples/assets/report-comparison-after.glb
      --before-clip acceptance-matrix --after-clip acceptance-matrix)
ring=(--config examples/run-ring.animsmith.toml report examples/assets/run-ring.glb)

report walk '\(1 clip\(s\), 3 finding\(s\), 0\.1 MB\)' "${walk[@]}"
report evidence '\(1 clip\(s\), 3 finding\(s\), 0\.1 MB\)' "${walk[@]}" --evidence-only
report pair '\(1 clip\(s\), 5 finding\(s\), 0\.1 MB\)' "${pair[@]}"
report pair-evidence '\(1 clip\(s\), 5 finding\(s\), 0\.1 MB\)' "${pair[@]}" --evidence-only
report ring '\(4 clip\(s\), 1 finding\(s\), [0-9]+\.[0-9] MB\)' "${ring[@]}"
report ring-left '\(1 clip\(s\), 1 finding\(s\), [0-9]+\.[0-9] MB\)' "${ring[@]}" --clip run_left

facts walk examples/walk.animsmith.toml examples/assets/walk-dirty.glb
facts before "$cmpcfg" examples/assets/report-comparison-before.glb
facts after "$cmpcfg" examples/assets/report-comparison-after.glb
facts ring examples/run-ring.animsmith.toml examples/assets/run-ring.glb

check single "$tmp/walk/report.html" "$tmp/walk.lint.json" "$tmp/walk.measure.json"
check single "$tmp/evidence/report.html" "$tmp/walk.lint.json" "$tmp/walk.measure.json" --evidence
for form in pair pair-evidence; do
    extra=()
    [[ $form == *evidence ]] && extra=(--evidence)
    check comparison "$tmp/$form/report.html" "$tmp/before.lint.json" "$tmp/after.lint.json" \
        "$tmp/before.measure.json" "$tmp/after.measure.json" acceptance-matrix acceptance-matrix \
        "${extra[@]}"
done
check single "$tmp/ring/report.html" "$tmp/ring.lint.json" "$tmp/ring.measure.json"
# Under an engine profile the prediction list holds the run's facets: an
# available Animation0 selector, the unit mapping and Scene0, and the
# blocking runtime-survival facet.
report bevy '\(1 clip\(s\), [0-9]+ finding\(s\), 0\.1 MB\)' --config examples/bevy-v3.animsmith.toml \
    report examples/assets/walk-dirty.glb
facts bevy examples/bevy-v3.animsmith.toml examples/assets/walk-dirty.glb
check single "$tmp/bevy/report.html" "$tmp/bevy.lint.json" "$tmp/bevy.measure.json"
python3 - "$tmp/bevy.lint.json" <<'PY' || fail=1
import json, sys
facets = [(r["check_id"], x["state"]) for r in json.load(open(sys.argv[1]))["files"][0]["checks"]
          for x in (r.get("prediction") or {}).get("facets", [])]
want = [("engine-addressability", "available"), ("engine-unit-scale", "available"),
        ("engine-unit-scale", "available"),
        ("engine-track-support", "required_prediction_unavailable")]
if facets != want:
    print("FAIL bevy: facets %s, want %s" % (facets, want))
    sys.exit(1)
print("ok   bevy: the report's facets are nonempty")
PY
check single "$tmp/ring-left/report.html" "$tmp/ring.lint.json" "$tmp/ring.measure.json" --clip=run_left

# Two takes named walk: the findings on "walk" cannot select a clip
# (target refusal ambiguous_clip); both takes are shown.
"$bin" transform examples/assets/walk-dirty.glb -o "$tmp/takes.gltf" >/dev/null
python3 - "$tmp/takes.gltf" <<'PY'
import copy, json, sys
g = json.load(open(sys.argv[1]))
g["animations"].append(copy.deepcopy(g["animations"][0]))
json.dump(g, open(sys.argv[1], "w"))
PY
report takes '\(2 clip\(s\), 3 finding\(s\), 0\.1 MB\)' --config examples/walk.animsmith.toml report "$tmp/takes.gltf"
facts takes examples/walk.animsmith.toml "$tmp/takes.gltf"
check single "$tmp/takes/report.html" "$tmp/takes.lint.json" "$tmp/takes.measure.json"
if grep -q '"refusal":"ambiguous_clip"' "$tmp/takes/report.html"; then
    echo "ok   takes: findings on a doubled clip name refuse to select"
else
    echo "FAIL takes: no finding target says ambiguous_clip"
    fail=1
fi

# The loop seam the walk-dirty findings name, read back from the page:
# foot_r's first and last frames are 0.1581 m apart.
if python3 - "$tmp/walk/report.html" <<'PY'
import base64, json, math, re, struct, sys
text = open(sys.argv[1]).read()
d = json.loads(re.search(r'id="animsmith-report-data">(.*?)</script>', text, re.S).group(1))
c = d["clips"][0]
n, bones = c["frame_count"], len(d["skeleton"]["bones"])
raw = base64.b64decode(c["positions"])
pos = struct.unpack("<%df" % (len(raw) // 4), raw)
b = [x["name"] for x in d["skeleton"]["bones"]].index("foot_r")
first = pos[b * 3:b * 3 + 3]
last = pos[((n - 1) * bones + b) * 3:((n - 1) * bones + b) * 3 + 3]
sys.exit(0 if abs(math.dist(first, last) - 0.15811389243274107) < 1e-6 else 1)
PY
then echo "ok   walk: foot_r's loop gap is 0.1581 m in the embedded positions"
else echo "FAIL walk: foot_r's first/last embedded positions are not 0.1581 m apart"; fail=1; fi

# The same input and flags give the same bytes.
"$bin" "${walk[@]}" -o "$tmp/again.html" >/dev/null
if cmp -s "$tmp/walk/report.html" "$tmp/again.html"; then
    echo "ok   deterministic"
else
    echo "FAIL two runs of the walk-dirty report differ"
    fail=1
fi

# Markup in clip and file names reaches the page only escaped: two takes
# of walk renamed, written as a .gltf whose own name holds markup.
"$bin" transform examples/assets/walk.glb -o "$tmp/x.gltf" >/dev/null
evil1='<img src=x onerror=alert(1)>&"'"'"
evil2='</script><script>alert(2)</script><!--'
python3 - "$tmp/x.gltf" "$tmp/q<b>&.gltf" "$evil1" "$evil2" <<'PY'
import copy, json, sys
g = json.load(open(sys.argv[1]))
g["animations"][0]["name"] = sys.argv[3]
take = copy.deepcopy(g["animations"][0])
take["name"] = sys.argv[4]
g["animations"].append(take)
json.dump(g, open(sys.argv[2], "w"))
PY
(cd "$tmp" && "$bin" report 'q<b>&.gltf' -o markup.html >/dev/null &&
    "$bin" lint --format json 'q<b>&.gltf' >markup.lint.json
    "$bin" measure --format json 'q<b>&.gltf' >markup.measure.json) || {
    echo "FAIL the markup-named report was not written"
    fail=1
}
(cd "$tmp" && python3 check.py markup markup.html "$evil1" "$evil2" 'raw:<b>' &&
    python3 check.py single markup.html markup.lint.json markup.measure.json) || fail=1

# A skinned mesh (corpus only): vertex counts are the glTF's, bone
# matrices frames * matrix_bones * 16 floats.
corpus=${ANIMSMITH_CORPUS:-$src/../shared/corpus}
man=$corpus/gltf/CesiumMan.glb
if [[ -f $man ]]; then
    mkdir -p "$tmp/mesh"
    if "$bin" report "$man" -o "$tmp/mesh/report.html" >/dev/null; then
        facts mesh "" "$man"
        check mesh "$tmp/mesh/report.html" "$man"
        check single "$tmp/mesh/report.html" "$tmp/mesh.lint.json" "$tmp/mesh.measure.json"
    else
        echo "FAIL the CesiumMan report was not written"
        fail=1
    fi
else
    echo "note: corpus not found at $corpus; the skinned-mesh checks are skipped"
fi
exit $fail
