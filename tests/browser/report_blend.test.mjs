// The illustrative blend pane against the C reference (animsmith-blendref):
// at interior weights the browser's binary64 blend agrees within
// 1e-5 + 1e-5 * |reference| per component; at weights 0 and 1 it draws the
// source positions exactly. Unavailable streams show their omission.
"use strict";

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";

import {
  cases, env, finish, framePositions, launch, openReport, readData, reportPath, shot, state,
  until, writeVariant,
} from "./lib.mjs";

const CAPTION = "Engine-agnostic illustrative blend of sampled local transforms (nlerp rotations). " +
  "Normalized phase, not a time warp. Not Bevy, Unity, Unreal or Godot runtime evidence.";
const WEIGHTS = [0.25, 0.5, 0.75];

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

// blendref's lines "W bone x y z" -> Map(W -> [x, y, z, ...]).
function reference(file, a, fa, b, fb) {
  assert.ok(env.blendref && fs.existsSync(env.blendref), `animsmith-blendref not built (${env.blendref})`);
  const out = execFileSync(env.blendref, [reportPath(file), a, String(fa), b, String(fb), ...WEIGHTS.map(String)],
    { encoding: "utf8" });
  const byW = new Map();
  for (const line of out.trim().split("\n")) {
    const [w, bone, x, y, z] = line.split(" ");
    if (!byW.has(Number(w))) byW.set(Number(w), []);
    const list = byW.get(Number(w));
    assert.equal(Number(bone), list.length / 3);
    list.push(Number(x), Number(y), Number(z));
  }
  return byW;
}

// Scrubs to three frames and, at each, compares blendPositions() with the
// C reference at the interior weights and, when endpoints is set, with the
// embedded source positions at weights 0 and 1. Returns the failures.
async function compareBlend(t, file, data, endpoints, prefix) {
  const [a, b] = data.clips;
  const failures = [];
  for (const f of [0, Math.floor((a.frame_count - 1) / 3), a.frame_count - 1]) {
    await t.page.evaluate((x) => window.animsmithReport.setFrame(x), f);
    const s = await until(t.page, (x) => x.frame === f);
    const fb = s.withFrame;
    if (fb !== Math.round(f / (a.frame_count - 1) * (b.frame_count - 1))) failures.push(`frame ${f}: paired frame ${fb}`);
    const ref = reference(file, a.name, f, b.name, fb);
    for (const w of WEIGHTS) {
      await t.page.evaluate((x) => window.animsmithReport.setBlendWeight(x), w);
      await until(t.page, (x) => x.blend.weight === w);
      const got = await t.page.evaluate(() => {
        const p = window.animsmithReport.blendPositions();
        return p ? Array.from(p) : null;
      });
      if (!got) { failures.push(`frame ${f} w ${w}: blendPositions() is null`); continue; }
      const want = ref.get(w);
      if (got.length !== want.length) { failures.push(`frame ${f} w ${w}: ${got.length} values, reference ${want.length}`); continue; }
      for (let k = 0; k < want.length; k++) {
        const tol = 1e-5 + 1e-5 * Math.abs(want[k]);
        if (!(Math.abs(got[k] - want[k]) <= tol)) {
          failures.push(`frame ${f} w ${w} bone ${Math.floor(k / 3)} axis ${"xyz"[k % 3]}: ${got[k]} vs reference ${want[k]}`);
          break;
        }
      }
      await shot(t.page, `${prefix}-f${f}-w${w}`);
    }
    if (!endpoints) continue;
    for (const [w, which, clip, frame] of [[0, "primary", a, f], [1, "with", b, fb]]) {
      await t.page.evaluate((x) => window.animsmithReport.setBlendWeight(x), w);
      await until(t.page, (x) => x.blend.weight === w);
      const [got, src] = await t.page.evaluate((k) => {
        const p = window.animsmithReport.blendPositions();
        return [p ? Array.from(p) : null, Array.from(window.animsmithReport.sourcePositions(k))];
      }, which);
      const embedded = framePositions(data, clip, frame);
      if (JSON.stringify(src) !== JSON.stringify(embedded)) failures.push(`frame ${f}: sourcePositions("${which}") is not the embedded frame ${frame}`);
      if (JSON.stringify(got) !== JSON.stringify(embedded)) failures.push(`frame ${f} w ${w}: the blend is not exactly the ${which} source positions`);
      await shot(t.page, `${prefix}-f${f}-w${w}`);
    }
  }
  return failures;
}

// Rewrites every record of a local stream with edit(record, bone).
function editLocal(b64, bones, edit) {
  const buf = Buffer.from(b64, "base64");
  for (let r = 0; r < buf.length / 40; r++) {
    const rec = [];
    for (let k = 0; k < 10; k++) rec.push(buf.readFloatLE(40 * r + 4 * k));
    edit(rec, r % bones);
    for (let k = 0; k < 10; k++) buf.writeFloatLE(rec[k], 40 * r + 4 * k);
  }
  return buf.toString("base64");
}

function axisAngle(x, y, z, deg) {
  const l = Math.hypot(x, y, z), h = deg * Math.PI / 360, s = Math.sin(h) / l;
  return [x * s, y * s, z * s, Math.cos(h)];
}

// Pairs clip 1 with clip 0 and turns the blend on where it is a control.
async function pairAndBlend(t, b) {
  await t.page.evaluate((h) => { location.hash = h; }, `with=${encodeURIComponent(b.name)}`);
  let s = await until(t.page, (x) => x.with === 1);
  assert.equal(s.with, 1, "with= did not pair");
  if (!s.blend.shown && (await t.page.locator("#toggle-blend").count()) > 0) {
    await t.page.locator("#toggle-blend").check();
    s = await until(t.page, (x) => x.blend.shown);
  }
  return s;
}

for (const c of cases("blend")) {
  describe(c.name, () => {
    const data = readData(c.file);
    const [a, b] = data.clips;

    test("the report carries two blendable clips", () => {
      assert.ok(data.clips.length >= 2, "fewer than two clips");
      assert.equal(data.blend.authority, "sampled-local-trs-blend-v1");
      assert.equal(data.blend.available, true, `blend unavailable: ${data.blend.omission}`);
      assert.equal(typeof a.local, "string", `clip ${a.name}: ${a.local_omission}`);
      assert.equal(typeof b.local, "string", `clip ${b.name}: ${b.local_omission}`);
    });

    test("interior weights match the C reference, 0 and 1 are the sources", async () => {
      const t = await openReport(browser, c.file);
      try {
        let s = await pairAndBlend(t, b);
        assert.equal(s.blend.available, true);
        assert.equal(s.blend.shown, true, "the blend pane is not shown for a valid pair");
        assert.equal(s.blend.weight, 0.5, "the weight does not start at 0.5");
        assert.ok(await t.page.evaluate((cap) => document.body.innerText.includes(cap), CAPTION),
          "the blend caption is missing or not exact");
        const failures = await compareBlend(t, c.file, data, true, `${c.name}-blend`);
        assert.deepEqual(failures, []);
        // Clearing the pair clears the pane.
        await t.page.evaluate(() => { location.hash = "with="; });
        s = await until(t.page, (x) => !x.blend.shown);
        assert.equal(s.blend.shown, false);
        assert.equal(await t.page.evaluate(() => window.animsmithReport.blendPositions()), null);
      } finally { await finish(t, `${c.name}-blend`); }
    });

    test("a stressed stream matches the reference (chain, negated rotations, shear, negative scale)", async () => {
      // The example clips are gentle; the data is edited so every branch of
      // the math matters: one parent chain, the second clip's rotations
      // stored negated (the hemisphere flip), a rotated root with a
      // nonuniform and negative scale over rotated children (shear),
      // per-bone translations.
      // The source positions stay as they were, so weights 0 and 1 must
      // draw them, not the blend of the edited streams.
      const ra = axisAngle(1, 1, 0, 40), rb = axisAngle(0, 1, 1, 100).map((v) => -v);
      const roots = [axisAngle(0, 0, 1, 30), axisAngle(1, 0, 1, 50)];
      const file = writeVariant(c.file, `${c.name}-blend-stress.html`, (d) => {
        const n = d.skeleton.bones.length;
        d.skeleton.bones.forEach((bone, i) => { bone.parent = i - 1; });
        for (const [k, q] of [[0, ra], [1, rb]]) {
          d.clips[k].local = editLocal(d.clips[k].local, n, (rec, bone) => {
            if (bone === 0) {
              rec[7] = 2; rec[8] = 0.5; rec[9] = -1;
              for (let j = 0; j < 4; j++) rec[3 + j] = roots[k][j];
              return;
            }
            if (rec[0] === 0 && rec[1] === 0 && rec[2] === 0) { rec[0] = 0.3; rec[1] = 0.2; rec[2] = 0.1; }
            for (let j = 0; j < 4; j++) rec[3 + j] = q[j];
          });
        }
      });
      const t = await openReport(browser, file);
      try {
        const s = await pairAndBlend(t, b);
        assert.equal(s.blend.shown, true, "the blend pane is not shown for the edited pair");
        assert.deepEqual(await compareBlend(t, file, readData(file), true, `${c.name}-blend-stress`), []);
      } finally { await finish(t, `${c.name}-blend-stress`); }
    });

    test("an omitted local stream shows its reason instead of a blend", async () => {
      const reason = "local transforms omitted for this test";
      const file = writeVariant(c.file, `${c.name}-blend-omitted.html`, (d) => {
        d.clips[1].local = null;
        d.clips[1].local_omission = reason;
      });
      const t = await openReport(browser, file);
      try {
        const s = await pairAndBlend(t, b);
        assert.equal(s.blend.shown, false, "a blend was shown without the paired clip's stream");
        assert.equal(await t.page.evaluate(() => window.animsmithReport.blendPositions()), null);
        assert.ok(await t.page.evaluate((r) => document.body.innerText.includes(r), reason),
          "the omission reason is not shown");
      } finally { await finish(t, `${c.name}-blend-omitted`); }
    });

    test("an unavailable blend shows the report's reason", async () => {
      const reason = "all local streams omitted for this test";
      const file = writeVariant(c.file, `${c.name}-blend-unavailable.html`, (d) => {
        d.blend = { authority: d.blend.authority, available: false, omission: reason };
        for (const clip of d.clips) { clip.local = null; clip.local_omission = reason; }
      });
      const t = await openReport(browser, file);
      try {
        const s = await pairAndBlend(t, b);
        assert.equal(s.blend.available, false);
        assert.equal(s.blend.shown, false);
        assert.ok(await t.page.evaluate((r) => document.body.innerText.includes(r), reason),
          "the omission reason is not shown");
        assert.equal((await state(t.page)).with, 1, "source pairing must survive a blend omission");
      } finally { await finish(t, `${c.name}-blend-unavailable`); }
    });
  });
}
