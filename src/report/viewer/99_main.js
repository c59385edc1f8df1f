/* Start-up: read the embedded data, start the form's controller and
 * publish the test hook (window.animsmithReport). */

function publishHook() {
  const hook = {
    state: () => app.state(),
    blendPositions: () => app.blendPositions(),
    sourcePositions: (which) => app.sourcePositions(which),
    setBlendWeight: (w) => app.setBlendWeight(w),
    setFrame: (f) => app.setFrame(f),
    selectFinding: (i, side) => app.selectFinding(i, side),
    /* Beyond the contract's list: the same actions as the play button,
     * the comparison's phase slider and its overlay toggle. */
    togglePlay: () => app.togglePlay(),
    setPhase: (u) => app.setPhase(u),
    setOverlay: (on) => app.setOverlay(on),
    /* A report with --lod: the mesh-quality rows and marks (each mark's
     * skinned position and canvas position at the current frame), and the
     * same selection as clicking a listed sample. */
    meshQuality: () => app.meshQuality(),
    selectMeshMark: (row, index) => app.selectMeshMark(row, index),
  };
  Object.defineProperty(hook, "ready", { get: () => app.ready, enumerable: true });
  window.animsmithReport = hook;
}

function main() {
  publishHook();
  const node = document.getElementById("animsmith-report-data");
  let data = null;
  try { data = JSON.parse(node ? node.textContent : "null"); } catch (e) { data = null; }
  themeInit();
  sizeCharts();
  if (!data || typeof data !== "object") {
    const viewer = document.getElementById("viewer");
    if (viewer) viewer.appendChild(el("p", { class: "notice", role: "status" }, "The report's embedded data could not be read."));
    app.ready = true;
    return;
  }
  if (data.form === "comparison") startComparison(data);
  else startSingle(data);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
else main();
