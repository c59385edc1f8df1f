// Real Mixamo and Quaternius characters: each report renders offline with
// its skinned mesh, and a sample of its finding rows scrubs correctly.
"use strict";

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";

import { clickFindings } from "./findings.mjs";
import {
  MIN_DRAWN_PIXELS, canvasImage, cases, finish, launch, nonBackgroundPixels, openReport,
  pixelsDiffer, readData, state, until,
} from "./lib.mjs";

// Real files carry hundreds of findings; an even spread of a few refusals
// and of the rest keeps one page's clicking within a minute.
const MAX_CLICKED = 12;

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

for (const c of cases("corpus")) {
  describe(c.name, () => {
    // A report without a clip (no clip has a judged pose grid) draws the
    // skeleton and mesh at rest, so it is held to the same checks.
    test("renders with its mesh", async () => {
      const data = readData(c.file);
      const t = await openReport(browser, c.file);
      try {
        assert.ok(data.mesh, `no mesh embedded: ${data.mesh_omission}`);
        const s = await state(t.page);
        assert.equal(s.mesh, true, "state().mesh is false");
        const withMesh = await canvasImage(t.page);
        const px = nonBackgroundPixels(withMesh);
        assert.ok(px.count >= MIN_DRAWN_PIXELS, `canvas has ${px.count} drawn pixels`);
        const box = t.page.locator("#toggle-mesh");
        assert.equal(await box.count(), 1, "no #toggle-mesh");
        await box.uncheck();
        await until(t.page, (x) => x.mesh === false);
        const without = await canvasImage(t.page);
        assert.ok(pixelsDiffer(withMesh, without) >= MIN_DRAWN_PIXELS, "hiding the mesh changed nothing drawn");
        await box.check();
        await until(t.page, (x) => x.mesh === true);
      } finally { await finish(t, c.name); }
    });

    test("finding rows scrub to their frames", async () => {
      const data = readData(c.file);
      const all = data.findings.map((_, i) => i);
      const refusals = all.filter((i) => data.findings[i].target.refusal);
      const rest = all.filter((i) => !data.findings[i].target.refusal);
      const spread = (list, n) => list.filter((_, k) => k % Math.max(1, Math.ceil(list.length / n)) === 0);
      const pick = [...spread(refusals, 4), ...spread(rest, MAX_CLICKED)].sort((x, y) => x - y);
      const t = await openReport(browser, c.file);
      try {
        const failures = await clickFindings(t, data, pick, null);
        assert.deepEqual(failures, []);
      } finally { await finish(t, `${c.name}-findings`); }
    });
  });
}
