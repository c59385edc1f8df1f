// The single-clip report in Chromium: it renders offline (no request, no
// console or page error), draws its canvas, scrubs to every finding's
// frame, and honours every URL-fragment option.
"use strict";

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";

import { clickFindings } from "./findings.mjs";
import {
  MIN_DRAWN_PIXELS, canvasImage, cases, finish, launch, nonBackgroundPixels, openReport, readData,
  setHash, settle, shot, state, until, writeVariant,
} from "./lib.mjs";

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

const pages = cases("single");
const cleared = (v) => v === null || v === undefined || v === -1 || v === "";

for (const c of pages) {
  describe(c.name, () => {
    const data = readData(c.file);

    test("renders offline and draws the canvas", async () => {
      const t = await openReport(browser, c.file);
      try {
        const s = await state(t.page);
        assert.equal(s.form, "single");
        assert.equal(data.schema, "urn:animsmith:schema:html-report:1");
        const img = await canvasImage(t.page);
        assert.ok(img, "no canvas under #viewer");
        const px = nonBackgroundPixels(img);
        assert.ok(px.count >= MIN_DRAWN_PIXELS,
          `canvas has ${px.count} pixels off its background ${px.background}`);
        assert.equal(s.mesh, data.mesh !== null, "state().mesh does not follow data.mesh");
      } finally { await finish(t, c.name); }
    });

    test("every finding row scrubs to its frame", async () => {
      const t = await openReport(browser, c.file);
      try {
        const all = data.findings.map((_, i) => i);
        const failures = await clickFindings(t, data, all, c.name);
        assert.deepEqual(failures, []);
      } finally { await finish(t, `${c.name}-findings`); }
    });

    test("theme=light and theme=dark pin the palette", async () => {
      const bg = {};
      for (const theme of ["light", "dark"]) {
        // The reader's preference is the opposite one, so the pin shows.
        const t = await openReport(browser, c.file, `theme=${theme}`,
          { colorScheme: theme === "light" ? "dark" : "light" });
        try {
          assert.equal(await t.page.getAttribute("html", "data-theme"), theme);
          assert.equal((await state(t.page)).theme, theme);
          bg[theme] = await t.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        } finally { await finish(t, `${c.name}-theme-${theme}`); }
      }
      assert.notEqual(bg.light, bg.dark, "light and dark share a background colour");
      // The default follows prefers-color-scheme; a value the option does
      // not know restores that default; hashchange re-applies.
      const t = await openReport(browser, c.file, "theme=bogus", { colorScheme: "dark" });
      try {
        assert.equal((await state(t.page)).theme, "dark");
        await setHash(t.page, "theme=light");
        assert.equal((await until(t.page, (s) => s.theme === "light")).theme, "light");
        assert.equal(await t.page.getAttribute("html", "data-theme"), "light");
        // An absent key leaves the pinned theme as it is.
        await setHash(t.page, "frame=1");
        assert.equal((await state(t.page)).theme, "light");
      } finally { await finish(t, `${c.name}-theme-default`); }
    });

    test("embed=1 hides the running title and the hint, nothing else", async () => {
      const visible = (page) => page.evaluate(() => {
        const out = [];
        const walk = (node, p) => {
          for (let i = 0; i < node.children.length; i++) {
            const e = node.children[i];
            if (e.tagName === "SCRIPT" || e.tagName === "STYLE") continue;
            const here = `${p}/${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}[${i}]`;
            const cs = getComputedStyle(e);
            const shown = e.getClientRects().length > 0 && cs.visibility !== "hidden";
            const intitle = !!e.closest(".running-title, .hint");
            out.push([here, shown, intitle]);
            walk(e, here);
          }
        };
        walk(document.body, "body");
        return out;
      });
      const plain = await openReport(browser, c.file);
      const embed = await openReport(browser, c.file, "embed=1");
      try {
        assert.equal((await state(embed.page)).embed, true);
        for (const sel of [".running-title", ".hint"]) {
          assert.equal(await plain.page.locator(sel).first().isVisible(), true, `${sel} hidden without embed`);
          assert.equal(await embed.page.locator(sel).first().isVisible(), false, `${sel} shown with embed=1`);
        }
        const a = await visible(plain.page), b = await visible(embed.page);
        const key = (l) => l.filter((x) => !x[2]).map((x) => `${x[0]} ${x[1]}`);
        assert.deepEqual(key(b), key(a), "embed=1 changed the visibility of something else");
      } finally {
        await finish(plain, `${c.name}-embed-off`);
        await finish(embed, `${c.name}-embed-on`);
      }
    });

    test("frame=N, clamped beyond the last frame, frame=abc restores 0", async () => {
      const n = data.clips[0].frame_count;
      const mid = Math.min(3, n - 1);
      const t = await openReport(browser, c.file, `frame=${mid}`);
      try {
        assert.equal((await state(t.page)).frame, mid);
        await setHash(t.page, `frame=${n + 40}`);
        assert.equal((await until(t.page, (s) => s.frame === n - 1)).frame, n - 1);
        await setHash(t.page, "frame=abc");
        assert.equal((await until(t.page, (s) => s.frame === 0)).frame, 0);
        await setHash(t.page, `frame=${mid}`);
        assert.equal((await until(t.page, (s) => s.frame === mid)).frame, mid, "hashchange not re-applied");
        await setHash(t.page, "frame=-1");
        assert.equal((await until(t.page, (s) => s.frame === 0)).frame, 0, "frame=-1 is not unparsable");
        // Unknown keys and malformed pairs are ignored.
        await setHash(t.page, `frame=${mid}&bogus=1&=x&junk&theme`);
        assert.equal((await until(t.page, (s) => s.frame === mid)).frame, mid);
        // An oversized fragment is ignored as a whole.
        await setHash(t.page, `frame=1&pad=${"x".repeat(4100)}`);
        await settle(t.page);
        assert.equal((await state(t.page)).frame, mid, "an over-4096-character fragment was applied");
        const label = await t.page.locator("#frame-label").textContent();
        assert.equal(label.trim(), `frame ${mid} / ${n - 1}`);
        const s = await state(t.page);
        const time = await t.page.locator("#time-label").textContent();
        assert.equal(time.trim(), `t = ${data.clips[0].times[mid].toFixed(3)} s`);
        assert.ok(Math.abs(s.timeS - data.clips[0].times[mid]) < 1e-12);
      } finally { await finish(t, `${c.name}-frame`); }
    });

    test("finding=INDEX selects, an index the document lacks clears", async (tt) => {
      const pick = data.findings.findIndex((f) => !f.target.refusal && f.target.clip_index !== null);
      if (pick < 0) { tt.skip("no selectable finding"); return; }
      const tg = data.findings[pick].target;
      const t = await openReport(browser, c.file, `finding=${pick}`);
      try {
        let s = await until(t.page, (x) => x.finding === pick);
        assert.equal(s.finding, pick);
        assert.equal(s.clip, tg.clip_index);
        if (tg.frame !== null) assert.equal(s.frame, tg.frame);
        await setHash(t.page, "finding=999");
        s = await until(t.page, (x) => cleared(x.finding));
        assert.ok(cleared(s.finding), `finding=999 left ${JSON.stringify(s.finding)} selected`);
        await setHash(t.page, `finding=${pick}`);
        await until(t.page, (x) => x.finding === pick);
        await setHash(t.page, "finding=x1");
        s = await until(t.page, (x) => cleared(x.finding));
        assert.ok(cleared(s.finding), "an unparsable finding did not clear the selection");
      } finally { await finish(t, `${c.name}-finding-fragment`); }
    });

    if (data.clips.length >= 2) {
      const [a, b] = data.clips;
      test("clip=NAME selects, an unknown clip selects the first", async () => {
        const t = await openReport(browser, c.file, `clip=${encodeURIComponent(b.name)}`);
        try {
          let s = await state(t.page);
          assert.equal(s.clip, 1);
          assert.equal(s.clipName, b.name);
          await setHash(t.page, "clip=no-such-clip");
          s = await until(t.page, (x) => x.clip === 0);
          assert.equal(s.clip, 0);
          await setHash(t.page, `clip=${encodeURIComponent(b.name)}`);
          await until(t.page, (x) => x.clip === 1);
          await setHash(t.page, "clip=%E0%A4%A");
          s = await until(t.page, (x) => x.clip === 0);
          assert.equal(s.clip, 0, "an undecodable clip did not select the first");
        } finally { await finish(t, `${c.name}-clip`); }
      });

      test("with=NAME pairs at the shared phase, with=self clears", async () => {
        const t = await openReport(browser, c.file, `with=${encodeURIComponent(b.name)}`);
        try {
          let s = await state(t.page);
          assert.equal(s.with, 1);
          assert.equal(s.withName, b.name);
          const f = Math.min(a.frame_count - 1, Math.max(1, Math.floor(a.frame_count / 3)));
          await t.page.evaluate((x) => window.animsmithReport.setFrame(x), f);
          s = await until(t.page, (x) => x.frame === f);
          const u = f / (a.frame_count - 1);
          assert.equal(s.withFrame, Math.round(u * (b.frame_count - 1)));
          await shot(t.page, `${c.name}-with`);
          for (const clear of [encodeURIComponent(a.name), "", "no-such-clip"]) {
            await setHash(t.page, `with=${encodeURIComponent(b.name)}`);
            await until(t.page, (x) => x.with === 1);
            await setHash(t.page, `with=${clear}`);
            s = await until(t.page, (x) => cleared(x.with));
            assert.ok(cleared(s.with), `with=${clear} left the pair ${JSON.stringify(s.with)}`);
          }
        } finally { await finish(t, `${c.name}-with-cleared`); }
      });

      test("a finding naming a missing or ambiguous clip is refused", async () => {
        // The examples hold no such finding; the data is edited so the
        // viewer's refusal path runs.
        const file = writeVariant(c.file, `${c.name}-refusal.html`, (d) => {
          d.findings.push({ ...d.findings[0] || {}, index: d.findings.length, check_id: "loop-closure",
            severity: "error", clip: "no-such-clip", bone: null, node: null, time_s: 0.5,
            measured: null, expected: null, message: "refusal probe",
            target: { clip_index: null, frame: null, bone_index: null, refusal: "missing_clip" } });
          d.findings.push({ ...d.findings[0] || {}, index: d.findings.length, check_id: "loop-closure",
            severity: "error", clip: d.clips[1].name, bone: null, node: null, time_s: 0.5,
            measured: null, expected: null, message: "ambiguous probe",
            target: { clip_index: null, frame: null, bone_index: null, refusal: "ambiguous_clip" } });
        });
        const vdata = readData(file);
        const t = await openReport(browser, file, `clip=${encodeURIComponent(b.name)}&frame=2`);
        try {
          const n = vdata.findings.length;
          const failures = await clickFindings(t, vdata, [n - 2, n - 1], `${c.name}-refusal`);
          assert.deepEqual(failures, []);
        } finally { await finish(t, `${c.name}-refusal`); }
      });
    }
  });
}
