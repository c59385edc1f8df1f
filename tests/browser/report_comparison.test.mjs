// The before/after comparison report: two panes at one phase, the overlay
// toggle, per-side finding links, and the overlay standing down while a
// loop-seam context is selected.
"use strict";

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";

import {
  MIN_DRAWN_PIXELS, canvasImage, cases, finish, launch, nonBackgroundPixels, openReport,
  pixelsDiffer, readData, settle, shot, state, until,
} from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

const SIDES = ["before", "after"];

// state().finding in the comparison names a side and an index; accept the
// shapes a viewer may reasonably use for that.
function selected(s, side, index) {
  const f = s.finding;
  if (f === null || f === undefined) return false;
  if (typeof f === "object") return f.side === side && f.index === index;
  return f === `${side}-${index}` || f === `finding-${side}-${index}`;
}

async function overlayPixels(t) {
  const img = await canvasImage(t.page);
  return img;
}

for (const c of cases("comparison")) {
  describe(c.name, () => {
    const data = readData(c.file);

    test("renders both panes offline", async () => {
      assert.equal(data.form, "comparison");
      const t = await openReport(browser, c.file);
      try {
        const s = await state(t.page);
        assert.equal(s.form, "comparison");
        for (const side of SIDES) {
          assert.ok(s.sides && s.sides[side], `state().sides.${side} missing`);
          const n = data.sides[side].clip.frame_count;
          assert.equal(s.sides[side].frame, Math.round(0 * (n - 1)));
        }
        const count = await t.page.locator("#viewer canvas").count();
        assert.ok(count >= 1, "no canvas under #viewer");
        for (let i = 0; i < count; i++) {
          const px = nonBackgroundPixels(await canvasImage(t.page, i));
          assert.ok(px.count >= MIN_DRAWN_PIXELS, `canvas ${i}: ${px.count} drawn pixels`);
        }
        assert.ok(await t.page.evaluate(() => document.body.classList.contains("form-comparison")));
      } finally { await finish(t, c.name); }
    });

    test("the shared phase sets each side's own nearest frame", async () => {
      const t = await openReport(browser, c.file);
      try {
        const nb = data.sides.before.clip.frame_count, na = data.sides.after.clip.frame_count;
        const f = Math.floor((nb - 1) / 2);
        await t.page.evaluate((x) => window.animsmithReport.setFrame(x), f);
        const s = await until(t.page, (x) => x.sides.before.frame === f);
        assert.equal(s.sides.before.frame, f);
        assert.equal(s.sides.after.frame, Math.round(f / (nb - 1) * (na - 1)));
        assert.ok(Math.abs(s.sides.before.timeS - data.sides.before.clip.times[f]) < 1e-12);
        assert.ok(Math.abs(s.sides.after.timeS - data.sides.after.clip.times[s.sides.after.frame]) < 1e-12);
        await shot(t.page, `${c.name}-phase`);
      } finally { await finish(t, `${c.name}-phase`); }
    });

    test("the overlay toggle draws both in one pane", async () => {
      const t = await openReport(browser, c.file);
      try {
        const box = t.page.locator("#toggle-overlay");
        assert.equal(await box.count(), 1, "no #toggle-overlay");
        assert.equal(await box.isChecked(), false, "the overlay is on by default");
        const two = await overlayPixels(t);
        await box.check();
        const s = await until(t.page, (x) => x.overlay === true);
        assert.equal(s.overlay, true);
        const one = await overlayPixels(t);
        assert.ok(pixelsDiffer(two, one) > 0, "the overlay did not change the drawing");
        await shot(t.page, `${c.name}-overlay`);
        await box.uncheck();
        assert.equal((await until(t.page, (x) => x.overlay === false)).overlay, false);
      } finally { await finish(t, `${c.name}-overlay`); }
    });

    test("every finding row selects its side's frame", async () => {
      const t = await openReport(browser, c.file);
      const failures = [];
      try {
        for (const side of SIDES) {
          const sd = data.sides[side];
          for (const f of sd.findings) {
            const row = t.page.locator(`[id="finding-${side}-${f.index}"]`);
            if ((await row.count()) !== 1) { failures.push(`no #finding-${side}-${f.index}`); continue; }
            await row.scrollIntoViewIfNeeded();
            await row.click();
            const ctx = (sd.contexts || []).find((x) => x.finding === f.index && x.kind === "loop_seam");
            const want = ctx ? ctx.frames[1] : f.target.frame;
            const s = await until(t.page, (x) => selected(x, side, f.index) && (want === null || x.sides[side].frame === want));
            if (!selected(s, side, f.index)) failures.push(`${side} ${f.index}: state().finding ${JSON.stringify(s.finding)}`);
            if (want !== null && s.sides[side].frame !== want) failures.push(`${side} ${f.index} (${f.check_id}): frame ${s.sides[side].frame}, expected ${want}`);
            if (ctx) {
              if (!(await t.page.locator("#toggle-overlay").isDisabled())) failures.push(`${side} ${f.index}: overlay not disabled at a loop seam`);
              if (s.overlay) failures.push(`${side} ${f.index}: overlay still in effect at a loop seam`);
            }
            await shot(t.page, `${c.name}-finding-${side}-${f.index}`);
          }
        }
        assert.deepEqual(failures, []);
      } finally { await finish(t, `${c.name}-findings`); }
    });

    test("#finding-before-0 selects it", async (tt) => {
      if (!data.sides.before.findings.length) { tt.skip("the before side has no finding"); return; }
      const t = await openReport(browser, c.file, "finding-before-0");
      try {
        const s = await until(t.page, (x) => selected(x, "before", 0));
        assert.ok(selected(s, "before", 0), `state().finding ${JSON.stringify(s.finding)}`);
      } finally { await finish(t, `${c.name}-anchor`); }
    });

    test("the overlay stands down while a loop-seam finding is selected", async (tt) => {
      let pick = null;
      for (const side of SIDES)
        for (const x of data.sides[side].contexts || [])
          if (x.kind === "loop_seam" && pick === null) pick = { side, index: x.finding, frames: x.frames };
      if (!pick) { tt.skip("no loop-seam context in this comparison"); return; }
      const t = await openReport(browser, c.file);
      try {
        const box = t.page.locator("#toggle-overlay");
        await box.check();
        await until(t.page, (x) => x.overlay === true);
        await t.page.locator(`[id="finding-${pick.side}-${pick.index}"]`).click();
        const s = await until(t.page, (x) => selected(x, pick.side, pick.index) && !x.overlay);
        assert.equal(s.overlay, false, "the overlay is still in effect");
        assert.equal(await box.isDisabled(), true, "the overlay toggle is not disabled");
        assert.equal(s.sides[pick.side].frame, pick.frames[1]);
        await shot(t.page, `${c.name}-seam`);
        // Selecting a finding without a seam context brings it back.
        const other = data.sides[pick.side].findings.find((f) =>
          !(data.sides[pick.side].contexts || []).some((x) => x.finding === f.index && x.kind === "loop_seam"));
        if (other) {
          await t.page.locator(`[id="finding-${pick.side}-${other.index}"]`).click();
          await settle(t.page);
          assert.equal(await box.isDisabled(), false, "the overlay stayed disabled");
        }
      } finally { await finish(t, `${c.name}-seam`); }
    });
  });
}
