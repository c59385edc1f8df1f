/* The before/after comparison: two panes at one shared normalized phase
 * (or one pane with the after pose dashed over the before), per-side
 * lists and identities, and #finding-<side>-<index> links. */

const SIDES = ["before", "after"];
const SEAM_STANDS_DOWN = "The overlay stands down while a loop-seam context is selected: that context is one side's own two endpoint frames, not one shared phase.";

function identityText(side) {
  const id = side.identity || {};
  const parts = [side.label || ""];
  if (id.sha256) parts.push("sha256 " + String(id.sha256).slice(0, 12));
  if (Number.isFinite(id.bytes)) parts.push(id.bytes.toLocaleString("en-US") + " bytes");
  if (id.closure && id.closure.sha256) parts.push("closure " + String(id.closure.sha256).slice(0, 12) + " (" + id.closure.files + " file" + (id.closure.files === 1 ? "" : "s") + ")");
  return parts.join(" \u00b7 ");
}

function startComparison(data) {
  const evidence = !!data.evidence_only;
  const sides = {};
  for (const name of SIDES) {
    const s = (data.sides && data.sides[name]) || {};
    const parents = parentsOf(s.skeleton);
    sides[name] = { name, rec: s, clip: s.clip || { frame_count: 1, times: [0], name: "" }, parents, bones: parents.length, findings: s.findings || [], contexts: s.contexts || [] };
  }
  const C = { phase: 0, override: null, finding: null, notice: null, overlayOn: false };
  const clock = makeClock();
  const viewer = document.getElementById("viewer");
  const figures = collectCharts();

  const controls = el("div", { class: "viewer-controls" });
  viewer.appendChild(controls);
  const noticeEl = el("p", { id: "notice", class: "notice notice-refusal", role: "status", hidden: true });
  viewer.appendChild(noticeEl);
  let view = null;
  if (evidence) viewer.appendChild(el("p", { id: "evidence-notice", class: "notice notice-evidence" }, EVIDENCE_NOTICE));
  else view = makeStage(viewer, "3-D view of the before and after judged pose-grid frames");

  const key = el("div", { id: "pane-key", class: "pane-key" });
  viewer.appendChild(key);
  const labels = {};
  for (const name of SIDES) {
    const s = sides[name];
    const fl = el("span", { id: "frame-label-" + name });
    const tl = el("span", { id: "time-label-" + name });
    const entry = el("span", { class: "key key-" + name, id: "pane-label-" + name }, [
      el("span", { class: "key-name" }, identityText(s.rec)), " ", s.clip.name ? "clip " + s.clip.name + ", " : "", fl, ", ", tl]);
    key.appendChild(entry);
    labels[name] = { fl, tl, entry };
  }

  const transport = el("div", { class: "transport" });
  const play = playButton("play");
  const phase = rangeInput("phase", "Shared phase", 0, 1, "any", 0);
  const phaseLabel = el("span", { id: "phase-label" }, "phase 0.000");
  const overlay = checkboxInput("toggle-overlay", "Overlay after on before", false);
  const overlayNote = el("span", { id: "overlay-note", class: "hint-inline", hidden: true }, SEAM_STANDS_DOWN);
  appendChildren(transport, [play, phase.wrap, phaseLabel, overlay.wrap, overlayNote]);
  viewer.appendChild(transport);
  play.addEventListener("click", togglePlay);
  phase.input.addEventListener("input", () => { setPhase(Number(phase.input.value)); });
  overlay.input.addEventListener("change", () => { C.overlayOn = overlay.input.checked; relayout(false); sync(); });

  const listBox = document.getElementById("findings");
  const lists = {};
  for (const name of SIDES) {
    const s = sides[name];
    const box = el("div", { class: "side-lists", "data-side": name }, [el("h2", { class: "side-title" }, identityText(s.rec))]);
    listBox.appendChild(box);
    lists[name] = buildLists(box, Object.assign({}, s.rec, { anchor: s.rec.anchor || "finding-" + name + "-" }),
      { side: name, title: name === "before" ? "Before" : "After", onSelect: (i) => selectFinding(name, i) });
  }

  function canPlay() { return !evidence && view && view.ok && sides.before.clip.frame_count > 1; }
  function sideFrame(name) {
    if (C.override && C.override.side === name) return C.override.frame;
    return phaseFrame(C.phase, sides[name].clip.frame_count);
  }
  function seamActive() {
    if (!C.finding) return false;
    return sides[C.finding.side].contexts.some((c) => c.finding === C.finding.index && c.kind === "loop_seam");
  }
  function overlayEffective() { return !evidence && C.overlayOn && !seamActive(); }

  const layers = {};
  function relayout(refit) {
    if (!view || !view.ok) return;
    const over = overlayEffective();
    for (const name of SIDES) {
      const s = sides[name];
      const st = clipStreams(s.clip, s.bones, 0);
      const dashed = over && name === "after";
      layers[name] = { parents: s.parents, positions: st.positions, frame: 0, color: name, jointColor: name, dashed,
        trails: trailBatches(view, st.positions, s.clip.frame_count, s.bones, s.rec.roles, dashed), highlight: -1, boneMatrices: null, meshOn: false };
    }
    view.setPanes(over ? [{ layers: [layers.before, layers.after] }] : [{ layers: [layers.before] }, { layers: [layers.after] }]);
    if (refit) { view.resize(); view.fit(boundsUnion([sides.before.clip.bounds, sides.after.clip.bounds])); }
    schedule();
  }

  function sync() {
    phase.input.disabled = evidence;
    setPlayButton(play, clock.playing, !canPlay());
    const seam = seamActive();
    overlay.input.disabled = evidence || seam;
    overlayNote.hidden = !seam || evidence;
    setPaneColumns(key, overlayEffective() || evidence ? 1 : 2);
  }

  function setPhase(u) {
    stopPlay();
    const n = Number(u);
    C.phase = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
    C.override = null;
    schedule();
  }
  function setFrame(f) {
    const n = sides.before.clip.frame_count;
    const v = Number(f);
    setPhase(framePhase(Number.isFinite(v) ? clampInt(Math.round(v), 0, Math.max(0, n - 1)) : 0, n));
  }

  function selectFinding(name, i) {
    const s = sides[name];
    const f = s && Number.isInteger(i) && i >= 0 && i < s.findings.length ? s.findings[i] : null;
    if (!f) return;
    const t = f.target || {};
    if (t.refusal === "missing_clip" || t.refusal === "ambiguous_clip") {
      C.notice = name + " " + refusalText(i);
      schedule();
      return;
    }
    stopPlay();
    C.notice = null;
    const wasOverlay = overlayEffective();
    if (C.finding) lists[C.finding.side].mark(null);
    C.finding = { side: name, index: i };
    lists[name].mark(i);
    const ctx = s.contexts.find((c) => c.finding === i && c.kind === "loop_seam");
    const n = s.clip.frame_count;
    if (ctx && Array.isArray(ctx.frames) && Number.isInteger(ctx.frames[1])) {
      const fr = clampInt(ctx.frames[1], 0, n - 1);
      C.phase = framePhase(fr, n);
      C.override = { side: name, frame: fr };
    } else if (t.refusal !== "no_clip" && Number.isInteger(t.frame)) {
      const fr = clampInt(t.frame, 0, n - 1);
      C.phase = framePhase(fr, n);
      C.override = { side: name, frame: fr };
    }
    if (wasOverlay !== overlayEffective()) relayout(false);
    sync();
    schedule();
  }

  function togglePlay() {
    if (clock.playing) stopPlay();
    else if (canPlay()) {
      C.override = null;
      clock.start(sides.before.clip.times, sideFrame("before"), nowMs());
      setPlayButton(play, true, false);
      schedule();
    }
  }
  function stopPlay() {
    if (!clock.playing) return;
    clock.stop();
    setPlayButton(play, false, !canPlay());
  }

  if (view && view.ok) {
    bindOrbit(view, schedule);
    bindKeys({ toggle: togglePlay, step: (d) => setFrame(sideFrame("before") + d) }, [view.canvas, phase.input]);
  }

  loop.tick = function (now) {
    if (!clock.playing) return false;
    const c = sides.before.clip;
    C.phase = framePhase(clock.frameAt(c.times, now), c.frame_count);
    return true;
  };

  loop.paint = function () {
    const frames = { before: sideFrame("before"), after: sideFrame("after") };
    for (const name of SIDES) {
      const c = sides[name].clip;
      setText(labels[name].fl, fmtFrame(frames[name], c.frame_count));
      setText(labels[name].tl, fmtTime(c.times[frames[name]]));
    }
    setText(phaseLabel, "phase " + C.phase.toFixed(3));
    if (Math.abs(Number(phase.input.value) - C.phase) > 1e-9) phase.input.value = String(C.phase);
    setNotice(noticeEl, C.notice);
    updatePlayheads(figures, (clip, side) => (side === "after" ? frames.after : frames.before));
    if (view && view.ok && layers.before) {
      for (const name of SIDES) {
        layers[name].frame = frames[name];
        const f = C.finding && C.finding.side === name ? sides[name].findings[C.finding.index] : null;
        layers[name].highlight = f && f.target && Number.isInteger(f.target.bone_index) ? f.target.bone_index : -1;
      }
      view.draw();
    }
    app.ready = true;
  };

  function selectAnchor(token) {
    for (const name of SIDES) {
      const prefix = sides[name].rec.anchor || "finding-" + name + "-";
      if (token.startsWith(prefix)) {
        const idx = parseIndex(token.slice(prefix.length));
        if (idx !== null) selectFinding(name, idx);
        return;
      }
    }
  }

  function applyFragment() {
    const { options, anchors } = parseFragment(location.hash);
    applyThemeOptions(options);
    for (const a of anchors) selectAnchor(a);
    if (options.has("frame")) {
      const o = options.get("frame");
      const v = o.ok ? parseIndex(o.value) : null;
      setFrame(v === null ? 0 : v);
    }
    sync();
    schedule();
  }

  app.state = function () {
    const fb = sideFrame("before"), fa = sideFrame("after");
    const cb = sides.before.clip, ca = sides.after.clip;
    return {
      form: "comparison", clip: 0, clipName: cb.name || null, with: null, withName: null,
      frame: fb, withFrame: null, timeS: cb.times[fb], playing: clock.playing,
      theme: themeResolved(), embed: theme.embed, finding: C.finding ? { side: C.finding.side, index: C.finding.index } : null,
      mesh: false, blend: { available: false, shown: false, weight: null, omission: null },
      overlay: overlayEffective(), notice: C.notice !== null ? C.notice : evidence ? EVIDENCE_NOTICE : null,
      phase: C.phase,
      sides: { before: { frame: fb, timeS: cb.times[fb] }, after: { frame: fa, timeS: ca.times[fa] } },
    };
  };
  app.blendPositions = () => null;
  app.sourcePositions = function (which) {
    const s = sides[which === "primary" ? "before" : which === "with" ? "after" : which];
    if (!s) return null;
    const p = clipStreams(s.clip, s.bones, 0).positions;
    if (!p) return null;
    const f = sideFrame(which), n = s.bones * 3;
    return Float64Array.from(p.subarray(f * n, f * n + n));
  };
  app.setBlendWeight = () => {};
  app.setFrame = setFrame;
  app.setPhase = setPhase;
  app.selectFinding = function (i, side) {
    if (typeof i === "string") { selectAnchor(i); return; }
    selectFinding(side === "after" ? "after" : "before", i);
  };
  app.setOverlay = function (on) { overlay.input.checked = !!on; C.overlayOn = !!on; relayout(false); sync(); };
  app.togglePlay = togglePlay;

  theme.onChange = schedule;
  relayout(true);
  sync();
  applyFragment();
  window.addEventListener("hashchange", applyFragment);
  schedule();
}
