// A report written with --lod: the Mesh quality panel lists every row of
// the embedded mesh_quality (state, residual, worst samples); the worst
// samples are drawn on the mesh as marks in their own colour, on the
// canvas, skinned with the mesh (at the rest-pose frame on their bind
// positions, elsewhere somewhere else); clicking a listed sample
// highlights its mark; an unmeasured row shows its reason and no value;
// an evidence-only page lists the rows and draws nothing.
"use strict";

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";

import { canvasImage, cases, finish, launch, openReport, readData, settle, writeVariant } from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

const meshq = (page) => page.evaluate(() => window.animsmithReport.meshQuality());

// A design token as [r, g, b] in 0..255, resolved the way the view does.
function token(page, name) {
  return page.evaluate((n) => {
    const probe = document.createElement("span");
    probe.style.color = `var(--${n})`;
    document.body.appendChild(probe);
    const m = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(getComputedStyle(probe).color);
    probe.remove();
    return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
  }, name);
}

function pixel(img, x, y) {
  const i = (Math.round(y) * img.width + Math.round(x)) * 4;
  return [img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]];
}

const near = (a, b, tol) => a.every((v, k) => Math.abs(v - b[k]) <= tol);

// The marks that sit on the canvas with room for their square.
async function onCanvas(page, marks) {
  const box = await page.locator("#viewer canvas").first().boundingBox();
  return { box, marks: marks.filter((m) => m.screen && m.screen[0] >= 6 && m.screen[1] >= 6 &&
    m.screen[0] <= box.width - 6 && m.screen[1] <= box.height - 6) };
}

for (const c of cases("meshq")) {
  describe(c.name, () => {
    const data = readData(c.file);
    const mq = data.mesh_quality;
    const marks = mq.rows.flatMap((r, ri) => r.marks.map((m, mi) => ({ ...m, row: ri, index: mi })));

    test("the panel lists every row and worst sample", async () => {
      const t = await openReport(browser, c.file);
      try {
        const s = await meshq(t.page);
        assert.ok(s, "window.animsmithReport.meshQuality() is null on a --lod page");
        assert.equal(s.rows, mq.rows.length);
        assert.equal(s.marks.length, marks.length);
        const rows = t.page.locator("#mesh-quality .meshq-row");
        assert.equal(await rows.count(), mq.rows.length);
        for (let i = 0; i < mq.rows.length; i++) {
          const r = mq.rows[i];
          const text = await rows.nth(i).innerText();
          assert.ok(text.includes(r.mesh), `row ${i} does not name mesh ${r.mesh}`);
          if (r.state === "measured") {
            assert.ok(text.includes((r.value * 1000).toFixed(3) + " mm"), `row ${i} does not show ${r.value} m in mm: ${text}`);
          }
          assert.equal(await rows.nth(i).locator(".mq-mark").count(), r.marks.length);
        }
        assert.ok(marks.length > 0, "the reduced candidate marks no sample");
        assert.ok((await t.page.locator("#mesh-quality-heading").innerText()).includes("Mesh quality"));
      } finally { await finish(t, `${c.name}-meshq-panel`); }
    });

    if (data.evidence_only) {
      test("an evidence-only page draws no mark", async () => {
        const t = await openReport(browser, c.file);
        try {
          const s = await meshq(t.page);
          assert.ok(s.marks.every((m) => !m.placed && !m.drawn), "an evidence-only mark is drawn");
          assert.equal(await t.page.locator("#viewer canvas").count(), 0);
          assert.equal(await t.page.locator("#mesh-quality .mq-unplaced").count(), marks.length);
        } finally { await finish(t, `${c.name}-meshq-evidence`); }
      });
      return;
    }

    test("the marks are drawn on the canvas and follow the pose", async () => {
      const t = await openReport(browser, c.file);
      try {
        await t.page.evaluate(() => window.animsmithReport.setFrame(0));
        await settle(t.page);
        const s0 = await meshq(t.page);
        assert.ok(s0.marks.every((m) => m.placed && m.drawn), "a mark on the drawn mesh is not drawn");
        // Frame 0 of the fixture's clip is the rest pose: a mark skinned
        // there is the sample's bind position.
        for (const m of s0.marks) {
          const want = marks.find((x) => x.row === m.row && x.index === m.index).position;
          assert.ok(near(m.world, want, 1e-4), `mark ${m.index} at ${m.world}, bind position ${want}`);
        }
        const { marks: seen } = await onCanvas(t.page, s0.marks);
        assert.ok(seen.length > 0, "no mark projects onto the canvas");
        const img = await canvasImage(t.page);
        const colour = await token(t.page, "mq-mark");
        const off = seen.filter((m) => !near(pixel(img, m.screen[0], m.screen[1]), colour, 40));
        assert.deepEqual(off.map((m) => [m.index, pixel(img, m.screen[0], m.screen[1])]), [],
          `marks whose centre pixel is not the mark colour ${colour}`);

        await t.page.evaluate(() => window.animsmithReport.setFrame(1));
        await settle(t.page);
        const s1 = await meshq(t.page);
        const moved = s1.marks.filter((m, i) => Math.hypot(m.screen[0] - s0.marks[i].screen[0], m.screen[1] - s0.marks[i].screen[1]) > 2);
        assert.ok(moved.length > 0, "no mark moved between frames 0 and 1");
        const { marks: seen1 } = await onCanvas(t.page, s1.marks);
        const img1 = await canvasImage(t.page);
        const off1 = seen1.filter((m) => !near(pixel(img1, m.screen[0], m.screen[1]), colour, 40));
        assert.deepEqual(off1.map((m) => m.index), [], "at frame 1 a mark's centre is not the mark colour");
      } finally { await finish(t, `${c.name}-meshq-marks`); }
    });

    test("clicking a listed sample highlights its mark", async () => {
      const t = await openReport(browser, c.file);
      try {
        const pick = marks[Math.min(2, marks.length - 1)];
        const item = t.page.locator(`#mesh-quality .mq-mark[data-row="${pick.row}"][data-mark="${pick.index}"]`);
        await item.locator("button").click();
        await settle(t.page);
        const s = await meshq(t.page);
        assert.deepEqual(s.selected, { row: pick.row, index: pick.index });
        assert.equal(await item.getAttribute("aria-current"), "true");
        assert.equal(await t.page.locator("#mesh-quality .mq-mark.selected").count(), 1);
        const m = s.marks.find((x) => x.row === pick.row && x.index === pick.index);
        const img = await canvasImage(t.page);
        const hl = await token(t.page, "highlight");
        assert.ok(near(pixel(img, m.screen[0], m.screen[1]), hl, 40),
          `the selected mark's pixel ${pixel(img, m.screen[0], m.screen[1])} is not the highlight ${hl}`);
        // Another sample moves the selection.
        const other = marks.find((x) => x !== pick);
        if (other) {
          await t.page.locator(`#mesh-quality .mq-mark[data-row="${other.row}"][data-mark="${other.index}"] button`).click();
          assert.deepEqual((await meshq(t.page)).selected, { row: other.row, index: other.index });
          assert.equal(await t.page.locator("#mesh-quality .mq-mark.selected").count(), 1);
        }
      } finally { await finish(t, `${c.name}-meshq-select`); }
    });

    test("an unmeasured row shows its state and reason, never a value", async () => {
      const reason = "mesh 'body': primitive 0 has no TEXCOORD_0, and the residual's samples are UVs";
      const file = writeVariant(c.file, `${c.name}-unmeasured.html`, (d) => {
        for (const r of d.mesh_quality.rows) Object.assign(r, { state: "not-measurable", value: null, reason, marks: [] });
      });
      const t = await openReport(browser, file);
      try {
        const row = t.page.locator("#mesh-quality .meshq-row").first();
        const text = await row.innerText();
        assert.ok(text.includes("not measurable"), `the row does not say not measurable: ${text}`);
        assert.ok(text.includes(reason), "the row does not give its reason");
        assert.equal(await row.locator(".mq-value").count(), 0, "an unmeasured row shows a value");
        assert.ok(!/\b0 mm\b/.test(text), "an unmeasured row reads as 0");
        assert.deepEqual((await meshq(t.page)).marks, []);
      } finally { await finish(t, `${c.name}-meshq-unmeasured`); }
    });
  });
}
