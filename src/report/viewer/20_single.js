/* The single-clip report: clip and pairing selection, transport, the
 * findings lists, the illustrative blend pane and the fragment options. */

function refusalText(i) {
  return "finding " + i + " names a clip this report cannot select unambiguously";
}

function startSingle(data) {
  const clips = data.clips || [];
  if (clips.length === 0) { startEmpty(data); return; }
  const bones = (data.skeleton && data.skeleton.bones) || [];
  const parents = parentsOf(data.skeleton);
  const boneCount = bones.length;
  const evidence = !!data.evidence_only;
  const mesh = !evidence && data.mesh ? data.mesh : null;
  const matrixBones = mesh ? mesh.matrix_bones.length : 0;
  const blender = makeBlender(parents);
  const findings = data.findings || [];
  const S = {
    clip: 0, with: null, frame: 0, finding: null, notice: null,
    meshOn: true, blendOn: true, weight: 0.5,
    pair: null,            /* {avail, omission, local: [a, b]} for the selected pair */
    blendOk: false,        /* the last interior blend was drawable */
  };
  const clock = makeClock();
  const viewer = document.getElementById("viewer");
  const figures = collectCharts();

  /* ---- DOM ---- */
  const controls = el("div", { class: "viewer-controls" });
  viewer.appendChild(controls);
  let clipSelect = null, withSelect = null;
  if (clips.length > 1) {
    const dup = (name) => clips.filter((c) => c.name === name).length > 1;
    const opts = clips.map((c, i) => ({ value: String(i), text: dup(c.name) ? c.name + " (#" + i + ")" : c.name }));
    const cs = selectInput("clip-select", "Clip", opts);
    const ws = selectInput("with-select", "With", [{ value: "", text: "none" }].concat(opts));
    clipSelect = cs.select; withSelect = ws.select;
    controls.appendChild(cs.wrap);
    controls.appendChild(ws.wrap);
    clipSelect.addEventListener("change", () => { selectClip(Number(clipSelect.value)); });
    withSelect.addEventListener("change", () => { selectWith(withSelect.value === "" ? null : Number(withSelect.value)); });
  }
  const noticeEl = el("p", { id: "notice", class: "notice notice-refusal", role: "status", hidden: true });
  viewer.appendChild(noticeEl);
  let view = null;
  if (evidence) {
    viewer.appendChild(el("p", { id: "evidence-notice", class: "notice notice-evidence" }, EVIDENCE_NOTICE));
  } else {
    view = makeStage(viewer, "3-D view of the judged pose-grid frames");
    meshControl(view, mesh, controls, (on) => { S.meshOn = on; relayout(false); syncControls(); });
  }
  meshOmissionNotice(viewer, data);
  const key = el("div", { id: "pane-key", class: "pane-key" });
  viewer.appendChild(key);
  const keyPrimary = el("span", { class: "key key-primary" }, [el("span", { class: "key-name" }), " "]);
  const frameLabel = el("span", { id: "frame-label" }, "frame 0 / 0");
  const timeLabel = el("span", { id: "time-label" }, "t = 0.000 s");
  const keyWith = el("span", { class: "key key-with", hidden: true }, [el("span", { class: "key-name" }), " "]);
  const withFrameLabel = el("span", { id: "with-frame-label" });
  const withTimeLabel = el("span", { id: "with-time-label" });
  const keyBlend = el("span", { class: "key key-blend", hidden: true }, [el("span", { class: "key-name" }, "illustrative blend"), " ", el("span", { id: "blend-weight-label" })]);
  appendChildren(keyPrimary, [frameLabel, ", ", timeLabel]);
  appendChildren(keyWith, [withFrameLabel, ", ", withTimeLabel]);
  appendChildren(key, [keyPrimary, keyWith, keyBlend]);

  const transport = el("div", { class: "transport" });
  const play = playButton("play");
  const scrub = rangeInput("scrub", "Frame", 0, 0, 1, 0);
  appendChildren(transport, [play, scrub.wrap]);
  viewer.appendChild(transport);
  play.addEventListener("click", togglePlay);
  scrub.input.addEventListener("input", () => { setFrame(Number(scrub.input.value)); });

  const blendBox = el("div", { id: "blend", class: "blend", hidden: true });
  const blendToggle = checkboxInput("toggle-blend", "Illustrative blend", true);
  const weight = rangeInput("blend-weight", "Blend weight", 0, 1, 0.01, 0.5);
  const blendCaption = el("p", { id: "blend-caption", class: "caption" }, BLEND_CAPTION);
  const blendOmission = el("p", { id: "blend-omission", class: "notice", hidden: true });
  const blendStatus = el("p", { id: "blend-status", class: "notice", hidden: true });
  appendChildren(blendBox, [el("div", { class: "blend-controls" }, [blendToggle.wrap, weight.wrap]), blendCaption, blendOmission, blendStatus]);
  viewer.appendChild(blendBox);
  const meshq = meshQualityPanel(viewer, data, view, mesh, schedule);
  blendToggle.input.addEventListener("change", () => { S.blendOn = blendToggle.input.checked; relayout(false); syncControls(); });
  weight.input.addEventListener("input", () => { setBlendWeight(Number(weight.input.value)); });

  const listBox = document.getElementById("findings");
  const lists = buildLists(listBox, data, { side: null, title: "", onSelect: (i) => selectFinding(i) });

  if (view && view.ok) {
    bindOrbit(view, schedule);
    bindKeys({ toggle: togglePlay, step: (d) => setFrame(S.frame + d) }, [view.canvas, scrub.input]);
  } else {
    bindKeys({ toggle: togglePlay, step: (d) => setFrame(S.frame + d) }, [scrub.input]);
  }

  /* ---- selection ---- */
  function current() { return clips[S.clip]; }
  function lastFrame(c) { return Math.max(0, (c ? c.frame_count : 1) - 1); }
  function withFrame() {
    if (S.with === null) return null;
    return phaseFrame(framePhase(S.frame, current().frame_count), clips[S.with].frame_count);
  }
  function canPlay() { return !evidence && view && view.ok && current() && current().frame_count > 1; }

  /* Admits the selected pair for the blend pane, decoding its two local
   * streams (and dropping any others) only here. */
  function admitPair() {
    S.pair = null;
    localRelease();
    if (S.with === null || evidence) return;
    const a = current(), b = clips[S.with];
    let reason = null, local = null;
    if (!data.blend || !data.blend.available) reason = (data.blend && data.blend.omission) || "illustrative blending is unavailable in this report";
    else if (!blender.topologyOk) reason = "the skeleton's parent indices do not precede their children";
    else {
      local = localPair(a, b, boneCount);
      reason = local[0].reason || local[1].reason;
      if (reason) { local = null; localRelease(); }
    }
    S.pair = { avail: reason === null, omission: reason, local };
  }

  function blendShown() { return !!(S.pair && S.pair.avail && S.blendOn); }

  /* Third-pane positions for the current frames: the source positions at
   * weights 0 and 1, the binary64 blend in between; null when the pane is
   * not shown or the blend is not drawable. */
  function blendSource() {
    if (!blendShown()) return null;
    const a = current(), b = clips[S.with];
    if (S.weight === 0) return { positions: clipStreams(a, boneCount, matrixBones).positions, frame: S.frame };
    if (S.weight === 1) return { positions: clipStreams(b, boneCount, matrixBones).positions, frame: withFrame() };
    const ok = blender.blend(S.pair.local[0].data, S.frame, S.pair.local[1].data, withFrame(), S.weight);
    return ok ? { blend: blender.out } : null;
  }

  let layers = { primary: null, with: null, blend: null };

  /* Rebuilds panes and layers after a selection change; refit: the camera
   * goes back to the bounds of what is shown. */
  function relayout(refit) {
    if (!view || !view.ok) return;
    const a = current();
    const sa = clipStreams(a, boneCount, matrixBones);
    const meshOn = S.meshOn && !!view.meshGl;
    const pair = S.with !== null;
    layers.primary = { parents, positions: sa.positions, frame: S.frame, color: pair ? "left" : "bone", dashed: false,
      trails: trailBatches(view, sa.positions, a.frame_count, boneCount, data.roles, false), highlight: -1,
      boneMatrices: sa.boneMatrices, meshOn };
    const panes = [{ layers: [layers.primary] }];
    const boxes = [a.bounds];
    layers.with = null; layers.blend = null;
    if (pair) {
      const b = clips[S.with];
      const sb = clipStreams(b, boneCount, matrixBones);
      layers.with = { parents, positions: sb.positions, frame: 0, color: "right", dashed: false,
        trails: trailBatches(view, sb.positions, b.frame_count, boneCount, data.roles, false), highlight: -1,
        boneMatrices: sb.boneMatrices, meshOn };
      panes.push({ layers: [layers.with] });
      boxes.push(b.bounds);
      if (blendShown()) {
        layers.blend = { parents, positions: null, blend: null, frame: 0, color: "blend", dashed: false, trails: null, highlight: -1, boneMatrices: null, meshOn: false };
        panes.push({ layers: [layers.blend] });
      }
    }
    view.setPanes(panes);
    if (refit) { view.resize(); view.fit(boundsUnion(boxes)); }
    schedule();
  }

  function syncControls() {
    const a = current();
    if (clipSelect) clipSelect.value = String(S.clip);
    if (withSelect) withSelect.value = S.with === null ? "" : String(S.with);
    scrub.input.max = String(lastFrame(a));
    scrub.input.disabled = !canPlay();
    setPlayButton(play, clock.playing, !canPlay());
    showClipFigures(figures, S.clip, S.with);
    setText(keyPrimary.firstChild, a ? a.name : "");
    keyPrimary.classList.toggle("paired", S.with !== null);
    keyWith.hidden = S.with === null;
    if (S.with !== null) setText(keyWith.firstChild, clips[S.with].name);
    blendBox.hidden = S.with === null || evidence;
    const avail = !!(S.pair && S.pair.avail);
    blendToggle.wrap.hidden = !avail;
    weight.wrap.hidden = !avail;
    weight.input.disabled = !blendShown();
    setNotice(blendOmission, S.pair && !S.pair.avail ? "Illustrative blend omitted: " + S.pair.omission : null);
    keyBlend.hidden = !blendShown();
    setPaneColumns(key, S.with === null ? 1 : blendShown() ? 3 : 2);
  }

  function selectClip(i) {
    if (!(i >= 0 && i < clips.length)) i = 0;
    const changed = i !== S.clip;
    stopPlay();
    S.clip = i;
    if (S.with === i) S.with = null;
    S.frame = clampInt(S.frame, 0, lastFrame(current()));
    if (changed) { admitPair(); relayout(true); }
    syncControls();
    schedule();
  }

  function selectWith(i) {
    if (i === null || !(i >= 0 && i < clips.length) || i === S.clip) i = null;
    if (i === S.with) { syncControls(); return; }
    S.with = i;
    admitPair();
    relayout(true);
    syncControls();
    schedule();
  }

  function setFrame(f) {
    stopPlay();
    const n = Number(f);
    S.frame = Number.isFinite(n) ? clampInt(Math.round(n), 0, lastFrame(current())) : 0;
    schedule();
  }

  function setBlendWeight(w) {
    const n = Number(w);
    S.weight = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0.5;
    schedule();
  }

  function selectFinding(i) {
    const f = Number.isInteger(i) && i >= 0 && i < findings.length ? findings[i] : null;
    if (!f) {
      S.finding = null; S.notice = null; lists.mark(null); schedule();
      return;
    }
    const t = f.target || {};
    if (t.refusal === "missing_clip" || t.refusal === "ambiguous_clip") {
      S.notice = refusalText(i);
      schedule();
      return;
    }
    S.notice = null;
    S.finding = i;
    lists.mark(i);
    if (t.refusal !== "no_clip" && Number.isInteger(t.clip_index)) {
      if (t.clip_index !== S.clip) selectClip(t.clip_index);
      if (Number.isInteger(t.frame)) setFrame(t.frame);
    }
    stopPlay();
    syncControls();
    schedule();
  }

  function highlightBone() {
    if (S.finding === null) return -1;
    const t = findings[S.finding].target || {};
    if (t.clip_index !== S.clip || !Number.isInteger(t.bone_index)) return -1;
    return t.bone_index;
  }

  /* ---- playback ---- */
  function togglePlay() {
    if (clock.playing) stopPlay();
    else if (canPlay()) { clock.start(current().times, S.frame, nowMs()); setPlayButton(play, true, false); schedule(); }
  }
  function stopPlay() {
    if (!clock.playing) return;
    clock.stop();
    setPlayButton(play, false, !canPlay());
  }

  loop.tick = function (now) {
    if (!clock.playing) return false;
    S.frame = clock.frameAt(current().times, now);
    return true;
  };

  let paintWithFrame = null;
  const frameOfClip = (clip) => (clip === S.clip ? S.frame : clip === S.with ? paintWithFrame : null);

  loop.paint = function () {
    const a = current();
    const wf = withFrame();
    setText(frameLabel, fmtFrame(S.frame, a.frame_count));
    setText(timeLabel, fmtTime(a.times[S.frame]));
    if (String(S.frame) !== scrub.input.value) scrub.input.value = String(S.frame);
    if (wf !== null) {
      const b = clips[S.with];
      setText(withFrameLabel, fmtFrame(wf, b.frame_count));
      setText(withTimeLabel, fmtTime(b.times[wf]));
    }
    setText(keyBlend.lastChild, "w = " + S.weight.toFixed(2));
    if (weight.input.value !== String(S.weight)) weight.input.value = String(S.weight);
    setNotice(noticeEl, S.notice);
    paintWithFrame = wf;
    updatePlayheads(figures, frameOfClip);
    if (view && view.ok && layers.primary) {
      layers.primary.frame = S.frame;
      layers.primary.highlight = highlightBone();
      if (layers.with) layers.with.frame = wf;
      if (layers.blend) {
        const src = blendSource();
        S.blendOk = !!src;
        layers.blend.hidden = !src;
        if (src) { layers.blend.positions = src.positions || null; layers.blend.blend = src.blend || null; layers.blend.frame = src.frame || 0; }
        setNotice(blendStatus, src ? null : "The blend at this weight and phase is not drawable (a position is not finite or exceeds the f32 range); the pane is cleared.");
      } else setNotice(blendStatus, null);
      view.draw();
    }
    app.ready = true;
  };

  /* ---- fragment ---- */
  function applyFragment() {
    const { options } = parseFragment(location.hash);
    applyThemeOptions(options);
    if (options.has("clip")) {
      const o = options.get("clip");
      selectClip(o.ok ? uniqueClipIndex(clips, o.value) : 0);
    }
    if (options.has("with")) {
      const o = options.get("with");
      selectWith(o.ok && o.value !== "" ? uniqueClipIndex(clips, o.value) : null);
    }
    if (options.has("finding")) {
      const o = options.get("finding");
      const idx = o.ok ? parseIndex(o.value) : null;
      if (idx !== null && idx < findings.length) selectFinding(idx);
      else { S.finding = null; lists.mark(null); S.notice = null; }
    }
    if (options.has("frame")) {
      const o = options.get("frame");
      const v = o.ok ? parseIndex(o.value) : null;
      setFrame(v === null ? 0 : Math.min(v, lastFrame(current())));
    }
    syncControls();
    schedule();
  }

  /* ---- hook ---- */
  app.state = function () {
    const a = current();
    const wf = withFrame();
    return {
      form: "single", clip: S.clip, clipName: a ? a.name : null,
      with: S.with, withName: S.with === null ? null : clips[S.with].name,
      frame: S.frame, withFrame: wf, timeS: a ? a.times[S.frame] : null, playing: clock.playing,
      theme: themeResolved(), embed: theme.embed, finding: S.finding,
      mesh: !!(view && view.ok && view.meshGl && view.meshGl.prims.length && S.meshOn && clipStreams(a, boneCount, matrixBones).boneMatrices),
      blend: { available: !!(S.pair && S.pair.avail), shown: blendShown() && blendSource() !== null, weight: S.weight,
               omission: S.pair && !S.pair.avail ? S.pair.omission : null },
      overlay: false,
      notice: S.notice !== null ? S.notice : evidence ? EVIDENCE_NOTICE : null,
      sides: null,
    };
  };
  app.blendPositions = function () {
    const src = blendSource();
    if (!src) return null;
    if (src.blend) return Float64Array.from(src.blend);
    const n = boneCount * 3;
    return Float64Array.from(src.positions.subarray(src.frame * n, src.frame * n + n));
  };
  app.sourcePositions = function (which) {
    const c = which === "with" ? (S.with === null ? null : clips[S.with]) : current();
    const f = which === "with" ? withFrame() : S.frame;
    if (!c) return null;
    const p = clipStreams(c, boneCount, matrixBones).positions;
    if (!p) return null;
    const n = boneCount * 3;
    return Float64Array.from(p.subarray(f * n, f * n + n));
  };
  app.meshQuality = () => (meshq ? meshq.state() : null);
  app.selectMeshMark = (row, index) => { if (meshq) meshq.select(row, index); };
  app.setBlendWeight = setBlendWeight;
  app.setFrame = setFrame;
  app.selectFinding = selectFinding;
  app.togglePlay = togglePlay;
  app.setPhase = (u) => setFrame(phaseFrame(Number(u) || 0, current().frame_count));

  theme.onChange = schedule;
  admitPair();
  relayout(true);
  syncControls();
  applyFragment();
  window.addEventListener("hashchange", applyFragment);
  schedule();
}
