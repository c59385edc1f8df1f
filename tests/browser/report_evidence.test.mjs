// The evidence-only report: no motion-bearing data in the file, the exact
// notice in place of the pose view, and still an offline, working page.
"use strict";

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";

import { cases, finish, launch, openReport, readData, reportPath, state } from "./lib.mjs";

const NOTICE = "Pose playback and illustrative blending are omitted in this evidence-only report. " +
  "No sampled positions or local transforms are embedded.";

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

for (const c of cases("evidence")) {
  describe(c.name, () => {
    test("the file holds no positions, local transforms, matrices or mesh", () => {
      // The page's text outside the viewer's own script: the data block,
      // markup and charts (the viewer's code may name the keys it reads).
      const html = fs.readFileSync(reportPath(c.file), "utf8")
        .replace(/<script>[\s\S]*?<\/script>/g, "");
      for (const word of ['"positions"', '"local"', '"bone_matrices"'])
        assert.ok(!html.includes(word), `the evidence-only file contains ${word}`);
      assert.ok(!/"mesh"\s*:\s*\{/.test(html), "the evidence-only file contains a mesh");
      const data = readData(c.file);
      assert.equal(data.evidence_only, true);
      assert.equal(data.mesh, null);
      const keys = [];
      const walk = (v) => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === "object")
          for (const [k, x] of Object.entries(v)) {
            if (["positions", "local", "bone_matrices", "bounds"].includes(k)) keys.push(k);
            walk(x);
          }
      };
      walk(data);
      assert.deepEqual(keys, [], "motion-bearing keys in the evidence-only data");
    });

    test("shows the exact notice and draws no pose", async () => {
      const t = await openReport(browser, c.file);
      try {
        const text = await t.page.evaluate(() => document.body.innerText);
        assert.ok(text.includes(NOTICE), "the evidence-only notice is missing or not exact");
        const s = await state(t.page);
        assert.equal(s.mesh, false);
        assert.equal(s.blend.shown, false);
        assert.equal(await t.page.evaluate(() => window.animsmithReport.blendPositions()), null);
        assert.equal(await t.page.locator("body.evidence-only").count(), 1, "body lacks the evidence-only class");
        assert.ok((await t.page.locator("#charts figure.chart").count()) > 0, "the charts are gone");
      } finally { await finish(t, c.name); }
    });
  });
}
