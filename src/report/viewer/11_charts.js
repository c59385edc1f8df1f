/* The C-drawn chart figures: which are shown, and their playheads. The
 * markup is read once; a repaint only moves playheads whose frame
 * changed. */

function intAttr(node, name, fallback) {
  const v = node.getAttribute(name);
  if (v === null || v === "") return fallback;
  const n = Number(v);
  return Number.isFinite(n) ? n : fallback;
}

function collectCharts() {
  const figures = [];
  for (const fig of document.querySelectorAll("#charts figure.chart")) {
    const f = {
      fig, clip: intAttr(fig, "data-clip", null), kind: fig.getAttribute("data-kind") || "",
      side: fig.getAttribute("data-side"), heads: [], dots: [],
    };
    for (const g of fig.querySelectorAll("g.playhead")) {
      f.heads.push({
        g, x0: intAttr(g, "data-x0", 0), x1: intAttr(g, "data-x1", 0), frames: intAttr(g, "data-frames", 1),
        clip: intAttr(g, "data-clip", f.clip), side: g.getAttribute("data-side") || f.side, last: undefined,
      });
    }
    for (const g of fig.querySelectorAll("g.playhead-dot")) {
      const circle = g.querySelector("circle");
      if (!circle) continue;
      const pts = [];
      for (const p of (g.getAttribute("data-points") || "").trim().split(/\s+/)) {
        const xy = p.split(",");
        if (xy.length === 2) pts.push(Number(xy[0]), Number(xy[1]));
      }
      f.dots.push({ g, circle, points: Float64Array.from(pts), clip: intAttr(g, "data-clip", f.clip), side: g.getAttribute("data-side") || f.side, last: undefined });
    }
    figures.push(f);
  }
  return figures;
}

/* Gives each chart its viewBox width as --vb-w, which the stylesheet
 * sizes every chart by (so all draw at one scale). */
function sizeCharts() {
  for (const svg of document.querySelectorAll("#charts svg.chart-svg")) {
    const vb = (svg.getAttribute("viewBox") || "").trim().split(/[\s,]+/).map(Number);
    if (vb.length === 4 && vb[2] > 0) svg.style.setProperty("--vb-w", String(vb[2]));
  }
}

/* frameOf(clip, side) -> frame or null (that clip is not on screen). */
function updatePlayheads(figures, frameOf) {
  for (const f of figures) {
    if (f.fig.hidden) continue;
    for (const h of f.heads) {
      const fr = frameOf(h.clip, h.side);
      if (fr === h.last) continue;
      h.last = fr;
      if (fr === null) { h.g.setAttribute("visibility", "hidden"); continue; }
      h.g.removeAttribute("visibility");
      const dx = h.frames > 1 ? ((h.x1 - h.x0) * Math.min(fr, h.frames - 1)) / (h.frames - 1) : 0;
      h.g.setAttribute("transform", "translate(" + dx.toFixed(2) + ",0)");
    }
    for (const d of f.dots) {
      const fr = frameOf(d.clip, d.side);
      if (fr === d.last) continue;
      d.last = fr;
      const k = fr === null ? -1 : Math.min(fr, d.points.length / 2 - 1);
      if (k < 0) { d.g.setAttribute("visibility", "hidden"); continue; }
      d.g.removeAttribute("visibility");
      d.circle.setAttribute("cx", d.points[2 * k].toFixed(2));
      d.circle.setAttribute("cy", d.points[2 * k + 1].toFixed(2));
    }
  }
}

/* Single-clip form: the selected and paired clips' figures are shown,
 * gait-group figures always, other clips' figures hidden. */
function showClipFigures(figures, primary, paired) {
  for (const f of figures) {
    if (f.kind === "gait-group" || f.clip === null) continue;
    const show = f.clip === primary || (paired !== null && f.clip === paired);
    if (f.fig.hidden === show) {
      f.fig.hidden = !show;
      for (const h of f.heads) h.last = undefined;
      for (const d of f.dots) d.last = undefined;
    }
  }
}
