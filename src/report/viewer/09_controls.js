/* Orbit (drag), zoom (wheel) and the keyboard: space toggles play, left
 * and right arrows step one frame while the view or a slider has focus. */

function bindOrbit(view, onChange) {
  const canvas = view.canvas;
  let drag = null;
  canvas.addEventListener("pointerdown", (e) => {
    drag = { x: e.clientX, y: e.clientY, id: e.pointerId };
    if (canvas.setPointerCapture) canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!drag || drag.id !== e.pointerId) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    drag.x = e.clientX; drag.y = e.clientY;
    const cam = view.camera;
    cam.yaw -= dx * 0.01;
    cam.pitch = Math.max(-1.5, Math.min(1.5, cam.pitch + dy * 0.01));
    onChange();
  });
  const end = (e) => { if (drag && drag.id === e.pointerId) drag = null; };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const cam = view.camera;
    const k = Math.exp(Math.max(-1, Math.min(1, e.deltaY * 0.001)));
    cam.dist = Math.max(cam.radius * 0.05, Math.min(cam.radius * 200, cam.dist * k));
    onChange();
  }, { passive: false });
}

/* keys: {toggle(), step(delta)}; stepTargets: elements on which the arrows
 * step a frame (the canvas and the frame/phase slider). */
function bindKeys(keys, stepTargets) {
  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    const tag = t && t.tagName ? t.tagName.toLowerCase() : "";
    if (e.key === " " || e.code === "Space") {
      /* A focused button or checkbox acts on space itself. */
      if (tag === "button" || tag === "select" || tag === "textarea" || tag === "a") return;
      if (tag === "input" && t.type !== "range") return;
      e.preventDefault();
      keys.toggle();
      return;
    }
    if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && stepTargets.indexOf(t) >= 0) {
      e.preventDefault();
      keys.step(e.key === "ArrowLeft" ? -1 : 1);
    }
  });
}
