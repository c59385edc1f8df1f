/* Form controls shared by both report forms: every input gets a label. */

const EVIDENCE_NOTICE = "Pose playback and illustrative blending are omitted in this evidence-only report. No sampled positions or local transforms are embedded.";
const BLEND_CAPTION = "Engine-agnostic illustrative blend of sampled local transforms (nlerp rotations). Normalized phase, not a time warp. Not Bevy, Unity, Unreal or Godot runtime evidence.";

function rangeInput(id, label, min, max, step, value) {
  const input = el("input", { type: "range", id, min, max, step, value });
  const wrap = el("span", { class: "range" }, [el("label", { for: id }, label), input]);
  return { wrap, input };
}

function checkboxInput(id, label, checked) {
  const input = el("input", { type: "checkbox", id });
  input.checked = !!checked;
  const wrap = el("span", { class: "check" }, [input, el("label", { for: id }, label)]);
  return { wrap, input };
}

function selectInput(id, label, options) {
  const select = el("select", { id });
  for (const o of options) select.appendChild(el("option", { value: o.value }, o.text));
  const wrap = el("span", { class: "select" }, [el("label", { for: id }, label), select]);
  return { wrap, select };
}

function playButton(id) {
  return el("button", { type: "button", id, class: "play", "aria-pressed": "false" }, "Play");
}

function setPlayButton(button, playing, disabled) {
  if (!button) return;
  setText(button, playing ? "Pause" : "Play");
  button.setAttribute("aria-pressed", playing ? "true" : "false");
  button.disabled = !!disabled;
}

/* A status line that is either hidden or shows one text. */
function setNotice(node, text) {
  if (!node) return;
  node.hidden = text === null;
  setText(node, text === null ? "" : text);
}

/* The key below the canvas lines its entries up with the panes above. */
function setPaneColumns(key, n) {
  for (const k of [1, 2, 3]) key.classList.toggle("panes-" + k, k === n);
}

/* The canvas stage: one WebGL2 canvas, or a notice where it cannot run. */
function makeStage(parent, label) {
  const canvas = el("canvas", { id: "view", tabindex: "0", "aria-label": label, class: "view" });
  const stage = el("div", { class: "stage" }, [canvas]);
  parent.appendChild(stage);
  const view = makeView(canvas);
  if (!view.ok) {
    stage.removeChild(canvas);
    stage.appendChild(el("p", { class: "notice notice-gl", role: "status" }, "This browser cannot draw the 3-D view (WebGL2 is unavailable); findings and charts below are complete."));
  } else if (window.ResizeObserver) {
    new ResizeObserver(() => { if (view.resize()) schedule(); }).observe(canvas);
  }
  return view;
}

/* The mesh's GPU streams and its "Mesh" checkbox (appended to controls,
 * checked); onToggle(checked) runs on change; fitMatrices as makeMeshGl
 * takes them. Returns the checkbox, or null when no primitive of the mesh
 * can be drawn. */
function meshControl(view, mesh, controls, onToggle, fitMatrices) {
  if (!view || !view.ok || !mesh) return null;
  try { view.meshGl = makeMeshGl(view.ctx, mesh, fitMatrices); } catch (e) { view.meshGl = null; }
  if (!view.meshGl || view.meshGl.prims.length === 0) return null;
  const mt = checkboxInput("toggle-mesh", "Mesh", true);
  controls.appendChild(mt.wrap);
  mt.input.addEventListener("change", () => onToggle(mt.input.checked));
  return mt.input;
}

/* Why the page builder left a document's mesh out, when it says. */
function meshOmissionNotice(parent, data) {
  if (data.mesh || data.evidence_only || !data.mesh_omission) return;
  parent.appendChild(el("p", { class: "notice mesh-omission" }, "Mesh not drawn: " + data.mesh_omission));
}

/* Trail layers of the roles a clip's view draws: root (the root role,
 * else the hips, else bone 0), hips, left and right foot. */
function trailBatches(view, positions, frames, bones, roles, dashed) {
  const out = [];
  if (!view.ok || !positions) return out;
  const r = roles || {};
  const root = Number.isInteger(r.root) ? r.root : Number.isInteger(r.hips) ? r.hips : 0;
  const list = [[root, "trail-root"]];
  if (Number.isInteger(r.hips) && r.hips !== root) list.push([r.hips, "trail-hips"]);
  if (Number.isInteger(r.left_foot)) list.push([r.left_foot, "left"]);
  if (Number.isInteger(r.right_foot)) list.push([r.right_foot, "right"]);
  for (const [bone, color] of list) {
    const batch = view.trail(positions, frames, bones, bone);
    if (batch) out.push({ batch, color, dashed });
  }
  return out;
}

function parentsOf(skeleton) {
  const bones = (skeleton && skeleton.bones) || [];
  return Int32Array.from(bones.map((b) => (Number.isInteger(b.parent) ? b.parent : -1)));
}
