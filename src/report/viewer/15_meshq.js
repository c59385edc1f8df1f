/* Mesh quality (a report written with --lod): each mesh's skinning-
 * envelope residual against the reduced candidate, its worst samples
 * listed, and those samples marked on the skinned mesh of the 3-D view.
 * A mark is a point of a source triangle (three vertices of a written
 * primitive and barycentric weights); it is skinned on the CPU with the
 * joint matrices the mesh is drawn with, so it rides the animated surface
 * frame by frame. The few corner vertices are read out of the primitive
 * streams once, when the panel is built. */

const MQ_STATE_TEXT = { measured: "measured", refused: "refused", "not-measurable": "not measurable" };

/* A residual in metres, read in millimetres below a metre. */
function fmtResidual(v) {
  if (typeof v !== "number" || !Number.isFinite(v)) return "";
  if (v === 0) return "0 mm";
  return Math.abs(v) < 1 ? (v * 1000).toFixed(3) + " mm" : v.toFixed(4) + " m";
}

/* The corners of every placed mark: position, joints and weights of its
 * three vertices, and the skin they use. A mark on a primitive the view
 * does not draw, or whose numbers do not hold together, gets null. */
function markCorners(mesh, meshGl, marks) {
  const streams = new Map();
  const drawn = new Set(meshGl ? meshGl.prims.map((p) => p.source) : []);
  function primitive(i) {
    if (!streams.has(i)) {
      const p = mesh.primitives[i];
      let s = null;
      try {
        s = { pos: decodeF32(p.positions), joints: decodeU16(p.joints), weights: decodeF32(p.weights), n: p.vertex_count, skin: p.skin };
        if (s.pos.length !== s.n * 3 || s.joints.length !== s.n * 4 || s.weights.length !== s.n * 4) s = null;
      } catch (e) { s = null; }
      streams.set(i, s);
    }
    return streams.get(i);
  }
  return marks.map((m) => {
    if (!Number.isInteger(m.primitive) || !drawn.has(m.primitive) || !Array.isArray(m.vertices) ||
        m.vertices.length !== 3 || !Array.isArray(m.bary) || m.bary.length !== 3) return null;
    const s = primitive(m.primitive);
    const skin = s && meshGl.skins[s.skin];
    if (!s || !skin || !skin.ok) return null;
    const corners = [];
    for (let k = 0; k < 3; k++) {
      const v = m.vertices[k];
      if (!(Number.isInteger(v) && v >= 0 && v < s.n) || !Number.isFinite(m.bary[k])) return null;
      const joints = Array.from(s.joints.subarray(v * 4, v * 4 + 4));
      if (joints.some((j) => j >= skin.joints.length)) return null;
      corners.push({ pos: Array.from(s.pos.subarray(v * 3, v * 3 + 3)), joints,
        weights: Array.from(s.weights.subarray(v * 4, v * 4 + 4)), bary: m.bary[k] });
    }
    return { skin, corners };
  });
}

/* out (3) = the corner-blended skinned point at frame of boneMatrices;
 * false when it is not finite. */
const MQ_JOINT_MATRIX = new Float64Array(16);
function skinMark(placed, boneMatrices, frame, matrixBones, out) {
  const base = frame * matrixBones;
  const s = placed.skin;
  out[0] = 0; out[1] = 0; out[2] = 0;
  for (const c of placed.corners) {
    for (let k = 0; k < 4; k++) {
      const w = c.weights[k] * c.bary;
      if (w === 0) continue;
      const j = c.joints[k];
      /* the bone's model matrix after the inverse bind, as the mesh's own */
      mat4MulAt(MQ_JOINT_MATRIX, 0, boneMatrices, (base + s.joints[j]) * 16, s.ibm, j * 16);
      addSkinnedInfluence(out, w, MQ_JOINT_MATRIX, 0, c.pos[0], c.pos[1], c.pos[2]);
    }
  }
  return Number.isFinite(out[0]) && Number.isFinite(out[1]) && Number.isFinite(out[2]);
}

/* The panel (appended to parent) and, when the view draws the mesh, the
 * marks it draws (view.marks). onChange runs after a selection. Returns
 * {state(), select(row, index)} for the test hook, or null when the
 * report has no mesh-quality section. */
function meshQualityPanel(parent, data, view, mesh, onChange) {
  const mq = data.mesh_quality;
  if (!mq || typeof mq !== "object" || !Array.isArray(mq.rows)) return null;
  const rows = mq.rows;
  const meshGl = view && view.ok ? view.meshGl : null;
  const matrixBones = mesh && Array.isArray(mesh.matrix_bones) ? mesh.matrix_bones.length : 0;
  const S = { selected: null };        /* {row, index} */
  const items = [];                    /* per row: the list items of its marks */
  const placed = rows.map((r) => (mesh && meshGl && Array.isArray(r.marks) ? markCorners(mesh, meshGl, r.marks) : []));
  const marks = [];                    /* flat: {row, index, placed, world, screen} */
  rows.forEach((r, ri) => (r.marks || []).forEach((m, mi) => {
    marks.push({ row: ri, index: mi, placed: placed[ri][mi] || null, world: [0, 0, 0], screen: null, drawn: false });
  }));

  const box = el("section", { id: "mesh-quality", class: "meshq", "aria-label": "Mesh quality" });
  box.appendChild(el("h2", { id: "mesh-quality-heading" }, "Mesh quality"));
  box.appendChild(el("p", { class: "caption" }, [
    "Skinning-envelope residual of ", el("span", { class: "mq-candidate" }, String(mq.candidate || "")),
    " against this file under the motion its clips contain: how far the reduced mesh can draw a surface point from where this mesh draws it. The worst samples are marked on the mesh.",
  ]));
  const list = el("ol", { id: "mesh-quality-list", class: "list meshq-rows" });
  rows.forEach((r, ri) => {
    const measured = r.state === "measured";
    const head = [
      el("span", { class: "mq-mesh" }, "mesh " + String(r.mesh)),
      el("span", { class: "mq-state mq-state-" + String(r.state) }, MQ_STATE_TEXT[r.state] || String(r.state)),
    ];
    if (measured) head.push(el("span", { class: "mq-value" }, fmtResidual(r.value)));
    if (r.triangles) head.push(el("span", { class: "mq-tris" }, r.triangles.source + " \u2192 " + r.triangles.candidate + " triangles"));
    if (measured && r.samples) head.push(el("span", { class: "mq-samples" }, r.samples.measured + " of " + r.samples.total + " samples measured"));
    if (!measured) head.push(el("span", { class: "f-message mq-reason" }, String(r.reason || "")));
    const li = el("li", { class: "meshq-row", "data-row": ri }, head);
    const ms = Array.isArray(r.marks) ? r.marks : [];
    items[ri] = [];
    if (measured && ms.length === 0) li.appendChild(el("span", { class: "f-message mq-none" }, "no sample departs from the source"));
    if (ms.length) {
      const ol = el("ol", { class: "mq-marks" });
      ms.forEach((m, mi) => {
        const p = placed[ri][mi];
        const b = el("button", { type: "button", class: "mq-mark-select" }, [
          el("span", { class: "mq-value" }, fmtResidual(m.value)),
          el("span", { class: "mq-sample" }, "sample " + m.sample),
          Array.isArray(m.uv) ? el("span", { class: "mq-uv" }, "uv " + m.uv.map((x) => Number(x).toFixed(4)).join(", ")) : null,
          p ? null : el("span", { class: "mq-unplaced" }, "not drawn"),
        ]);
        const item = el("li", { class: "mq-mark", "data-row": ri, "data-mark": mi }, [b]);
        b.addEventListener("click", () => select(ri, mi));
        items[ri][mi] = item;
        ol.appendChild(item);
      });
      li.appendChild(ol);
    }
    list.appendChild(li);
  });
  if (rows.length === 0) list.appendChild(noneRow("meshq-row"));
  box.appendChild(list);
  parent.appendChild(box);

  function select(ri, mi) {
    const ok = Number.isInteger(ri) && Number.isInteger(mi) && items[ri] && items[ri][mi];
    if (S.selected) {
      const old = items[S.selected.row][S.selected.index];
      old.classList.remove("selected");
      old.removeAttribute("aria-current");
    }
    S.selected = ok ? { row: ri, index: mi } : null;
    if (S.selected) {
      items[ri][mi].classList.add("selected");
      items[ri][mi].setAttribute("aria-current", "true");
    }
    if (onChange) onChange();
  }

  if (meshGl && marks.some((m) => m.placed)) {
    const ctx = view.ctx;
    const batch = makePointBatch(ctx, marks.length + 1);
    const one = makePointBatch(ctx, 1);
    const p = [0, 0, 0];
    /* layer: the pane layer the mesh is drawn for; vp its camera; port
     * the pane's viewport in canvas pixels ({x, w, h, pane}). */
    view.marks = {
      draw(layer, vp, port) {
        /* The first pane's marks are what the test hook reports. */
        if (port.pane === 0) for (const m of marks) { m.drawn = false; m.screen = null; }
        if (!layer.boneMatrices || !layer.meshOn) return;
        const dpr = window.devicePixelRatio || 1, c = theme.colors;
        let n = 0, sel = -1;
        for (const m of marks) {
          if (!m.placed || !skinMark(m.placed, layer.boneMatrices, layer.frame, matrixBones, p)) continue;
          const isSel = S.selected && S.selected.row === m.row && S.selected.index === m.index;
          if (port.pane === 0) {
            m.world[0] = p[0]; m.world[1] = p[1]; m.world[2] = p[2];
            m.drawn = true;
            m.screen = projectToCss(vp, p, port, dpr);
          }
          if (isSel) { sel = n; one.data[0] = p[0]; one.data[1] = p[1]; one.data[2] = p[2]; }
          batch.data[n * 3] = p[0]; batch.data[n * 3 + 1] = p[1]; batch.data[n * 3 + 2] = p[2];
          n++;
        }
        if (n === 0) return;
        pointBatchUpload(ctx, batch, n);
        /* An outline in the bone colour keeps a mark legible on the mesh
         * and on the canvas alike. */
        drawPoints(ctx, batch, 0, n, vp, c.bone, 11 * dpr, false, true);
        drawPoints(ctx, batch, 0, n, vp, c["mq-mark"], 7 * dpr, false, true);
        if (sel >= 0) {
          pointBatchUpload(ctx, one, 1);
          drawPoints(ctx, one, 0, 1, vp, c.bone, 19 * dpr, false, true);
          drawPoints(ctx, one, 0, 1, vp, c.highlight, 15 * dpr, false, true);
        }
      },
    };
  }

  return {
    state() {
      return {
        candidate: mq.candidate, rows: rows.length, selected: S.selected ? { row: S.selected.row, index: S.selected.index } : null,
        marks: marks.map((m) => ({ row: m.row, index: m.index, placed: !!m.placed, drawn: m.drawn,
          world: m.drawn ? m.world.slice() : null, screen: m.screen ? m.screen.slice() : null })),
      };
    },
    select,
  };
}

/* A model-space point through vp to CSS pixels of the canvas (origin top
 * left), or null behind the camera. */
function projectToCss(vp, p, port, dpr) {
  const x = vp[0] * p[0] + vp[4] * p[1] + vp[8] * p[2] + vp[12];
  const y = vp[1] * p[0] + vp[5] * p[1] + vp[9] * p[2] + vp[13];
  const w = vp[3] * p[0] + vp[7] * p[1] + vp[11] * p[2] + vp[15];
  if (!(w > 0)) return null;
  const sx = port.x + (x / w * 0.5 + 0.5) * port.w;
  const sy = port.h - (y / w * 0.5 + 0.5) * port.h;
  return [sx / dpr, sy / dpr];
}
