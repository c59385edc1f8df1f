/* Findings, coverage gaps and prediction facets: three lists, each under
 * its own heading, built from the embedded records as text. */

function findingRow(f, id, onSelect, anchor) {
  const where = [];
  if (f.clip !== null && f.clip !== undefined) where.push(el("span", { class: "f-clip" }, "clip " + f.clip));
  if (f.bone !== null && f.bone !== undefined) where.push(el("span", { class: "f-bone" }, "bone " + f.bone));
  else if (f.node !== null && f.node !== undefined) where.push(el("span", { class: "f-bone" }, "node " + f.node));
  if (typeof f.time_s === "number") where.push(el("span", { class: "f-time" }, fmtTime(f.time_s)));
  const values = [];
  if (f.measured !== null && f.measured !== undefined) values.push("measured " + fmtValue(f.measured));
  if (f.expected !== null && f.expected !== undefined) values.push("expected " + fmtValue(f.expected));
  const sev = f.severity || "note";
  const button = el("button", { type: "button", class: "finding-select" }, [
    el("span", { class: "sev sev-" + sev }, sev),
    el("span", { class: "f-check" }, f.check_id || ""),
    ...where,
    el("span", { class: "f-message" }, f.message || ""),
    values.length ? el("span", { class: "f-values" }, values.join(", ")) : null,
  ]);
  const li = el("li", { id, class: "finding sev-row-" + sev, "data-index": f.index }, [button]);
  if (anchor) li.appendChild(el("a", { class: "f-link", href: "#" + id, "aria-label": "link to this finding" }, "#"));
  button.addEventListener("click", () => onSelect(f.index));
  return li;
}

function gapRow(g) {
  const parts = [el("span", { class: "f-check" }, g.check_id || ""), el("span", { class: "gap-code" }, g.code || "")];
  if (g.scope) parts.push(el("span", { class: "gap-scope" }, [g.scope.code, g.scope.subject].filter((x) => x !== null && x !== undefined).join(" ")));
  parts.push(el("span", { class: "f-message" }, g.message || ""));
  return el("li", { class: "gap" }, parts);
}

/* The result's fields as "key=value" pairs (its kind leads the row). */
function resultText(result) {
  if (!result) return "";
  const parts = [];
  for (const k of Object.keys(result)) {
    if (k === "kind") continue;
    parts.push(k + "=" + (result[k] === null ? "null" : String(result[k])));
  }
  return parts.join(", ");
}

function predictionRow(p) {
  const scope = p.scope || {};
  const facet = scope.subject ? scope.code + " " + scope.subject : scope.code || "";
  const unavailable = p.state !== "available";
  return el("li", { class: "prediction" + (unavailable ? " unavailable" : "") }, [
    el("span", { class: "f-check" }, p.check_id || ""),
    el("span", { class: "pred-facet" }, facet),
    el("span", { class: "pred-state" }, p.state || ""),
    el("span", { class: "f-message" },
       unavailable ? (p.reasons || []).join(", ")
                   : ((p.result && p.result.kind) || "") + ": " + resultText(p.result)),
  ]);
}

function noneRow(cls) {
  return el("li", { class: cls + " none" }, "none");
}

/* Appends the three lists to parent. opts: {side (comparison side or
 * null), title (heading prefix), onSelect(index)}. Returns {rows, mark}. */
function buildLists(parent, rec, opts) {
  const side = opts.side;
  const suffix = side ? "-" + side : "";
  const title = opts.title ? opts.title + ": " : "";
  const findings = rec.findings || [], gaps = rec.gaps || [], predictions = rec.predictions || [];
  const rows = [];
  const fl = el("ol", { id: "finding-list" + suffix, class: "list findings" });
  for (const f of findings) {
    const id = side ? (rec.anchor || "finding-" + side + "-") + f.index : "finding-" + f.index;
    const li = findingRow(f, id, opts.onSelect, !!side);
    rows[f.index] = li;
    fl.appendChild(li);
  }
  if (findings.length === 0) fl.appendChild(noneRow("finding"));
  const gl = el("ul", { id: "gap-list" + suffix, class: "list gaps" });
  for (const g of gaps) gl.appendChild(gapRow(g));
  if (gaps.length === 0) gl.appendChild(noneRow("gap"));
  const pl = el("ul", { id: "prediction-list" + suffix, class: "list predictions" });
  for (const p of predictions) pl.appendChild(predictionRow(p));
  if (predictions.length === 0) pl.appendChild(noneRow("prediction"));
  appendChildren(parent, [
    el("h2", { id: "findings-heading" + suffix }, title + "Findings (" + findings.length + ")"), fl,
    el("h2", { id: "gaps-heading" + suffix }, title + "Coverage gaps (" + gaps.length + ")"), gl,
    el("h2", { id: "predictions-heading" + suffix }, title + "Prediction facets (" + predictions.length + ")"), pl,
  ]);
  let marked = null;
  function mark(i) {
    if (marked !== null && rows[marked]) { rows[marked].classList.remove("selected"); rows[marked].removeAttribute("aria-current"); }
    marked = i !== null && rows[i] ? i : null;
    if (marked !== null) { rows[marked].classList.add("selected"); rows[marked].setAttribute("aria-current", "true"); }
  }
  return { rows, mark };
}
