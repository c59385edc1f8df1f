/* Repaint scheduling and the playback clock. A repaint happens only when
 * something changed or while playing; playback shows exactly the embedded
 * frames, each at its own sample time, looping. */

const loop = { pending: false, paint: null, tick: null };

function schedule() {
  if (loop.pending) return;
  loop.pending = true;
  requestAnimationFrame(onAnimationFrame);
}

function onAnimationFrame(now) {
  loop.pending = false;
  const again = loop.tick ? loop.tick(now) : false;
  if (loop.paint) loop.paint();
  if (again) schedule();
}

/* The clock runs over one grid of sample times; the last frame holds for
 * one mean step before the loop returns to frame 0. */
function makeClock() {
  const c = { playing: false, wall0: 0, clip0: 0 };
  c.start = function (times, frame, now) {
    c.playing = true;
    c.wall0 = now;
    c.clip0 = times.length ? times[frame] - times[0] : 0;
  };
  c.stop = function () { c.playing = false; };
  c.frameAt = function (times, now) {
    const n = times.length;
    if (n < 2) return 0;
    const span = times[n - 1] - times[0];
    if (!(span > 0)) return 0;
    const period = span + span / (n - 1);
    let t = ((now - c.wall0) / 1000 + c.clip0) % period;
    if (t < 0) t += period;
    t += times[0];
    let lo = 0, hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (times[mid] <= t) lo = mid; else hi = mid - 1;
    }
    return lo;
  };
  return c;
}

function nowMs() {
  return performance.now();
}
