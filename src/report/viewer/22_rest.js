/* A single-clip report that holds no clip (every clip of the document
 * lacks a judged pose grid): the findings are still listed, and the view
 * shows the skeleton, and the mesh skinned with it, at rest. There is no
 * frame to play or scrub, so there is no transport. */

const EMPTY_NOTICE = "This report holds no animation clip to play back.";
const REST_NOTICE = "Showing the rest pose.";

/* The rest pose as the view draws it: positions (x, y, z per bone) and the
 * model matrices of mesh.matrix_bones, each null when absent or not of
 * the length the skeleton and mesh call for. */
function decodeRestPose(data, boneCount, matrixBones) {
  const rest = data.rest_pose;
  const out = { positions: null, boneMatrices: null };
  if (!rest || typeof rest !== "object" || data.evidence_only) return out;
  if (typeof rest.positions === "string" && boneCount > 0) {
    const p = decodeF32(rest.positions);
    if (p.length === boneCount * 3 && p.every(Number.isFinite)) out.positions = p;
  }
  if (typeof rest.bone_matrices === "string" && matrixBones > 0) {
    const m = decodeF32(rest.bone_matrices);
    if (m.length === matrixBones * 16) out.boneMatrices = m;
  }
  return out;
}

/* {min, max} over a one-frame position stream. */
function positionBounds(p) {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i + 2 < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      if (p[i + k] < min[k]) min[k] = p[i + k];
      if (p[i + k] > max[k]) max[k] = p[i + k];
    }
  }
  return { min, max };
}

function startEmpty(data) {
  const viewer = document.getElementById("viewer");
  const findings = data.findings || [];
  const parents = parentsOf(data.skeleton);
  const evidence = !!data.evidence_only;
  const mesh = !evidence && data.mesh ? data.mesh : null;
  const rest = decodeRestPose(data, parents.length, mesh ? mesh.matrix_bones.length : 0);
  const S = { finding: null, notice: null, meshOn: true };

  const lead = el("p", { class: "notice notice-empty" }, rest.positions ? EMPTY_NOTICE + " " + REST_NOTICE : EMPTY_NOTICE);
  const controls = el("div", { class: "viewer-controls" });
  const noticeEl = el("p", { id: "notice", class: "notice notice-refusal", role: "status", hidden: true });
  appendChildren(viewer, [lead, controls, noticeEl]);
  if (evidence) viewer.appendChild(el("p", { id: "evidence-notice", class: "notice notice-evidence" }, EVIDENCE_NOTICE));
  let view = null, layer = null;
  if (rest.positions) {
    view = makeStage(viewer, "3-D view of the rest pose");
    meshControl(view, rest.boneMatrices ? mesh : null, controls, (on) => { S.meshOn = on; relayout(); }, rest.boneMatrices);
  }
  meshOmissionNotice(viewer, data);
  if (!controls.firstChild) viewer.removeChild(controls);
  const meshq = meshQualityPanel(viewer, data, view, rest.boneMatrices ? mesh : null, schedule);
  const lists = buildLists(document.getElementById("findings"), data, { side: null, title: "", onSelect: select });

  function meshDrawn() {
    return !!(view && view.ok && view.meshGl && S.meshOn && rest.boneMatrices);
  }

  function relayout() {
    if (!view || !view.ok) return;
    layer = { parents, positions: rest.positions, frame: 0, color: "bone", dashed: false, trails: null,
      highlight: -1, boneMatrices: rest.boneMatrices, meshOn: meshDrawn() };
    view.setPanes([{ layers: [layer] }]);
    schedule();
  }

  /* A finding names no clip here; one that names a bone still points at
   * it in the rest pose. */
  function select(i) {
    const f = Number.isInteger(i) && i >= 0 && i < findings.length ? findings[i] : null;
    const refusal = f && f.target ? f.target.refusal : null;
    if (refusal === "missing_clip" || refusal === "ambiguous_clip") S.notice = refusalText(i);
    else { S.notice = null; S.finding = f ? i : null; lists.mark(S.finding); }
    schedule();
  }

  function highlightBone() {
    if (S.finding === null) return -1;
    const b = (findings[S.finding].target || {}).bone_index;
    return Number.isInteger(b) && b >= 0 && b < parents.length ? b : -1;
  }

  function applyFragment() {
    const { options } = parseFragment(location.hash);
    applyThemeOptions(options);
    if (options.has("finding")) {
      const o = options.get("finding");
      select(o.ok ? parseIndex(o.value) : null);
    }
    schedule();
  }

  loop.tick = null;
  loop.paint = function () {
    setNotice(noticeEl, S.notice);
    if (view && view.ok && layer) {
      layer.highlight = highlightBone();
      view.draw();
    }
    app.ready = true;
  };

  app.state = () => ({
    form: "single", clip: null, clipName: null, with: null, withName: null, frame: null, withFrame: null, timeS: null,
    playing: false, theme: themeResolved(), embed: theme.embed, finding: S.finding, mesh: meshDrawn(),
    blend: { available: false, shown: false, weight: 0.5, omission: null }, overlay: false,
    notice: S.notice !== null ? S.notice : evidence ? EVIDENCE_NOTICE : null, sides: null,
  });
  app.sourcePositions = (which) => (which === "primary" || which === undefined) && rest.positions ? Float64Array.from(rest.positions) : null;
  app.selectFinding = select;
  app.meshQuality = () => (meshq ? meshq.state() : null);
  app.selectMeshMark = (row, index) => { if (meshq) meshq.select(row, index); };

  theme.onChange = schedule;
  if (view && view.ok) {
    bindOrbit(view, schedule);
    relayout();
    view.resize();
    /* The mesh reaches past the outermost joints (the top of a head), so
     * the camera takes in both. */
    view.fit(boundsUnion([positionBounds(rest.positions), view.meshGl && view.meshGl.fitBounds]));
  }
  applyFragment();
  window.addEventListener("hashchange", applyFragment);
  schedule();
}
