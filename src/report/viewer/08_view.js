/* The 3-D pose view: one canvas split into side-by-side panes that share
 * one camera. Controllers describe panes and layers on selection changes
 * (allocation happens there); a repaint only refills preallocated buffers
 * from the layers' current frames. */

const FOV = Math.PI / 4;

function makeView(canvas) {
  let ctx = null;
  try { ctx = makeGl(canvas); } catch (e) { ctx = null; }
  const view = {
    ok: !!ctx, canvas, ctx, panes: [], bounds: null, grid: null, meshGl: null,
    marks: null,                /* {draw(layer, vp, port)}: mesh-quality marks, drawn last */
    camera: { yaw: 0.6, pitch: 0.28, dist: 3, target: [0, 0, 0], radius: 1 },
    drawn: false,
  };
  if (!ctx) return view;
  const gl = ctx.gl;
  const proj = new Float32Array(16), look = new Float32Array(16), vp = new Float32Array(16);
  const eye = [0, 0, 0], up = [0, 1, 0], px = [1, 1], light = new Float32Array(3);
  const hl = { seg: makeSegBatch(ctx, 1), pt: makePointBatch(ctx, 1) };

  /* Ground grid on y = 0 covering the bounds: 1 m lines with 0.1 m minor
   * lines; a scene too large for that reads in 10 m (or coarser) lines, each
   * with its own tenth as minor lines while they stay few enough to read. */
  function buildGrid(b) {
    freeBatch(ctx, view.grid && view.grid.major);
    freeBatch(ctx, view.grid && view.grid.minor);
    const ext = Math.max(b.max[0] - b.min[0], b.max[2] - b.min[2], 1e-3);
    const step = Math.max(1, Math.pow(10, Math.ceil(Math.log10(ext / 20))));
    const x0 = Math.floor(b.min[0] / step - 1) * step, x1 = Math.ceil(b.max[0] / step + 1) * step;
    const z0 = Math.floor(b.min[2] / step - 1) * step, z1 = Math.ceil(b.max[2] / step + 1) * step;
    function lines(s, skipMajor) {
      const out = [];
      const nx = Math.round((x1 - x0) / s), nz = Math.round((z1 - z0) / s);
      for (let i = 0; i <= nx; i++) {
        if (skipMajor && i % 10 === 0) continue;
        const x = x0 + i * s;
        out.push(x, 0, z0, 0, x, 0, z1, 0);
      }
      for (let i = 0; i <= nz; i++) {
        if (skipMajor && i % 10 === 0) continue;
        const z = z0 + i * s;
        out.push(x0, 0, z, 0, x1, 0, z, 0);
      }
      return new Float32Array(out);
    }
    const minorOk = ((x1 - x0) / step) * ((z1 - z0) / step) <= 900;
    view.grid = { major: makeSegBatch(ctx, 0, lines(step, false)), minor: minorOk ? makeSegBatch(ctx, 0, lines(step / 10, true)) : null };
  }

  /* Camera fitted to the bounds: orbit angles kept, target and distance
   * reset, so every pane's content starts in view. */
  view.fit = function (b) {
    view.bounds = b;
    view.camera.target = b.center.slice();
    view.camera.radius = b.radius;
    const aspect = paneAspect();
    const s = Math.sin(FOV / 2) * Math.min(1, aspect);
    view.camera.dist = (b.radius / s) * 1.1;
    buildGrid(b);
  };

  function paneAspect() {
    const n = Math.max(1, view.panes.length);
    return (canvas.width / n) / Math.max(1, canvas.height);
  }

  /* Static trail segments of one bone over all frames. */
  view.trail = function (positions, frames, bones, bone) {
    if (!positions || bone < 0 || bone >= bones || frames < 2) return null;
    const d = new Float32Array((frames - 1) * 8);
    let len = 0;
    for (let f = 0; f + 1 < frames; f++) {
      const a = (f * bones + bone) * 3, b = ((f + 1) * bones + bone) * 3;
      const o = f * 8;
      d[o] = positions[a]; d[o + 1] = positions[a + 1]; d[o + 2] = positions[a + 2]; d[o + 3] = len;
      len += Math.hypot(positions[b] - positions[a], positions[b + 1] - positions[a + 1], positions[b + 2] - positions[a + 2]);
      d[o + 4] = positions[b]; d[o + 5] = positions[b + 1]; d[o + 6] = positions[b + 2]; d[o + 7] = len;
    }
    return makeSegBatch(ctx, 0, d);
  };

  /* panes: [{layers: [LAYER]}]; LAYER = {parents, positions (all frames,
   * f32) or blend (f64, one frame), frame, color, dashed, trails:
   * [{batch, color}], highlight, boneMatrices, meshOn}. Old layers' buffers
   * are released. */
  view.setPanes = function (panes) {
    for (const p of view.panes) for (const l of p.layers) {
      freeBatch(ctx, l.seg); freeBatch(ctx, l.pt);
      if (l.trails) for (const t of l.trails) freeBatch(ctx, t.batch);
    }
    for (const p of panes) for (const l of p.layers) {
      const n = l.parents.length;
      l.seg = makeSegBatch(ctx, n);
      l.pt = makePointBatch(ctx, n);
    }
    view.panes = panes;
  };

  function fillLayer(l) {
    const n = l.parents.length;
    const src = l.blend || l.positions;
    const base = l.blend ? 0 : l.frame * n * 3;
    const sd = l.seg.data, pd = l.pt.data;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const o = base + i * 3;
      pd[i * 3] = src[o]; pd[i * 3 + 1] = src[o + 1]; pd[i * 3 + 2] = src[o + 2];
      const p = l.parents[i];
      if (p < 0) continue;
      const q = base + p * 3, w = k * 8;
      sd[w] = src[o]; sd[w + 1] = src[o + 1]; sd[w + 2] = src[o + 2]; sd[w + 3] = 0;
      sd[w + 4] = src[q]; sd[w + 5] = src[q + 1]; sd[w + 6] = src[q + 2];
      sd[w + 7] = Math.hypot(src[q] - src[o], src[q + 1] - src[o + 1], src[q + 2] - src[o + 2]);
      k++;
    }
    segBatchUpload(ctx, l.seg, k);
    pointBatchUpload(ctx, l.pt, n);
    return base;
  }

  function drawHighlight(l, color) {
    const n = l.parents.length, b = l.highlight;
    if (!(b >= 0 && b < n)) return;
    const src = l.blend || l.positions;
    const base = l.blend ? 0 : l.frame * n * 3;
    const o = base + b * 3;
    hl.pt.data[0] = src[o]; hl.pt.data[1] = src[o + 1]; hl.pt.data[2] = src[o + 2];
    pointBatchUpload(ctx, hl.pt, 1);
    const p = l.parents[b];
    if (p >= 0) {
      const q = base + p * 3, d = hl.seg.data;
      d[0] = src[o]; d[1] = src[o + 1]; d[2] = src[o + 2]; d[3] = 0;
      d[4] = src[q]; d[5] = src[q + 1]; d[6] = src[q + 2]; d[7] = 0;
      segBatchUpload(ctx, hl.seg, 1);
      drawSegs(ctx, hl.seg, vp, px, color, 5, 0);
    }
    drawPoints(ctx, hl.pt, 0, 1, vp, color, 14, false);
  }

  view.resize = function () {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; return true; }
    return false;
  };

  /* Sized from the ResizeObserver and on layout changes only: reading the
   * layout here would force a reflow on every repaint. */
  view.draw = function () {
    const c = theme.colors, cam = view.camera;
    const W = canvas.width, H = canvas.height, n = Math.max(1, view.panes.length);
    const dpr = window.devicePixelRatio || 1;
    gl.disable(gl.SCISSOR_TEST);
    gl.viewport(0, 0, W, H);
    const sep = c["grid-major"], bg = c.canvas;
    gl.clearColor(sep[0], sep[1], sep[2], 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    const cp = Math.cos(cam.pitch);
    eye[0] = cam.target[0] + cam.dist * cp * Math.sin(cam.yaw);
    eye[1] = cam.target[1] + cam.dist * Math.sin(cam.pitch);
    eye[2] = cam.target[2] + cam.dist * cp * Math.cos(cam.yaw);
    mat4LookAt(look, eye, cam.target, up);
    /* Head light from the camera side, in model space. */
    const ll = Math.hypot(eye[0] - cam.target[0], eye[1] - cam.target[1] + cam.dist * 0.3, eye[2] - cam.target[2]) || 1;
    light[0] = (eye[0] - cam.target[0]) / ll; light[1] = (eye[1] - cam.target[1] + cam.dist * 0.3) / ll; light[2] = (eye[2] - cam.target[2]) / ll;
    for (let i = 0; i < n; i++) {
      const x0 = Math.round((W * i) / n), x1 = Math.round((W * (i + 1)) / n);
      const gap = n > 1 ? Math.max(1, Math.round(dpr)) : 0;
      /* A canvas a few pixels wide (mid-layout) still gets valid panes. */
      const vx = Math.min(x0 + (i > 0 ? gap : 0), W - 1), vw = Math.max(1, x1 - vx);
      gl.enable(gl.SCISSOR_TEST);
      gl.scissor(vx, 0, vw, H);
      gl.viewport(vx, 0, vw, H);
      gl.clearColor(bg[0], bg[1], bg[2], 1);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      px[0] = vw; px[1] = H;
      const near = Math.max(1e-4, cam.dist / 200), far = cam.dist * 20 + cam.radius * 4;
      mat4Perspective(proj, FOV, vw / Math.max(1, H), near, far);
      mat4Mul(vp, proj, look);
      gl.disable(gl.DEPTH_TEST);
      if (view.grid) {
        if (view.grid.minor) drawSegs(ctx, view.grid.minor, vp, px, c["grid-minor"], 1, 0);
        drawSegs(ctx, view.grid.major, vp, px, c["grid-major"], 1.5 * dpr, 0);
      }
      const pane = view.panes[i];
      if (!pane) continue;
      gl.enable(gl.DEPTH_TEST);
      for (const l of pane.layers) {
        if (l.meshOn && l.boneMatrices && view.meshGl) drawMesh(ctx, view.meshGl, l.boneMatrices, l.frame, vp, c.mesh, light);
      }
      gl.disable(gl.DEPTH_TEST);
      const dash = cam.radius * 0.04;
      for (const l of pane.layers) {
        if (l.trails) for (const t of l.trails) drawSegs(ctx, t.batch, vp, px, c[t.color], 1.5 * dpr, l.dashed ? dash : 0);
      }
      for (const l of pane.layers) {
        if (!(l.blend || l.positions) || l.hidden) continue;
        fillLayer(l);
        drawSegs(ctx, l.seg, vp, px, c[l.color], 2.5 * dpr, l.dashed ? dash * 0.5 : 0);
        drawPoints(ctx, l.pt, 0, l.parents.length, vp, c[l.jointColor || "joint"], 7 * dpr, l.dashed);
        drawHighlight(l, c.highlight);
      }
      if (view.marks && view.meshGl) {
        for (const l of pane.layers) view.marks.draw(l, vp, { x: vx, w: vw, h: H, pane: i });
      }
    }
    gl.disable(gl.SCISSOR_TEST);
    view.drawn = true;
  };

  return view;
}
