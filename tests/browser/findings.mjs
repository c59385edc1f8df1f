// Finding-row checks shared by the single-clip and corpus tests.
"use strict";

import { findingRow, framePositions, playheadErrors, settle, shot, state, until } from "./lib.mjs";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Clicks each finding row of indices in an open single-clip report and
// returns the failures: a selectable finding must move state().frame,
// #frame-label and the clip's chart playheads to target.frame; a refusal
// must show a notice and change nothing else; a document-level finding
// must leave the clip and frame alone.
export async function clickFindings(t, data, indices, shotPrefix) {
  const failures = [];
  for (const i of indices) {
    const f = data.findings[i];
    const tg = f.target;
    const { how, row } = await findingRow(t.page, i);
    if (!row) {
      failures.push(`finding ${i}: no row found under #findings`);
      continue;
    }
    const before = await state(t.page);
    await row.scrollIntoViewIfNeeded();
    await row.click();
    const label = `finding ${i} (${f.check_id}, row by ${how})`;
    if (tg.refusal === "missing_clip" || tg.refusal === "ambiguous_clip") {
      const s = await until(t.page, (x) => typeof x.notice === "string" && x.notice.length > 0, 2000);
      await settle(t.page);
      const after = await state(t.page);
      if (!s.notice) failures.push(`${label}: refusal ${tg.refusal} showed no notice`);
      else if (!(await t.page.evaluate((n) => document.body.innerText.includes(n), s.notice)))
        failures.push(`${label}: notice "${s.notice}" is not on the page`);
      for (const k of ["clip", "frame", "with", "finding", "withFrame"])
        if (!same(after[k], before[k])) failures.push(`${label}: refusal changed ${k} from ${JSON.stringify(before[k])} to ${JSON.stringify(after[k])}`);
    } else if (tg.refusal === "no_clip" || tg.clip_index === null) {
      await settle(t.page);
      const after = await state(t.page);
      for (const k of ["clip", "frame"])
        if (!same(after[k], before[k])) failures.push(`${label}: document-level finding changed ${k}`);
    } else {
      // A finding without a time selects its clip and leaves the frame to
      // the viewer, which must still keep it on that clip's grid.
      const n = data.clips[tg.clip_index].frame_count;
      let s = await until(t.page, (x) => x.clip === tg.clip_index && x.finding === i &&
        (tg.frame === null || x.frame === tg.frame));
      await settle(t.page);
      s = await state(t.page);
      const want = tg.frame === null ? s.frame : tg.frame;
      if (s.clip !== tg.clip_index) failures.push(`${label}: clip ${s.clip}, expected ${tg.clip_index}`);
      if (s.frame !== want) failures.push(`${label}: frame ${s.frame}, expected ${want}`);
      if (!(Number.isInteger(want) && want >= 0 && want < n)) {
        failures.push(`${label}: frame ${want} is off the clip's ${n}-frame grid`);
        continue;
      }
      if (s.finding !== i) failures.push(`${label}: state().finding ${JSON.stringify(s.finding)}, expected ${i}`);
      const clip = data.clips[tg.clip_index];
      const text = await t.page.locator("#frame-label").textContent().catch(() => null);
      const wantLabel = `frame ${want} / ${clip.frame_count - 1}`;
      if (text === null || text.trim() !== wantLabel) failures.push(`${label}: #frame-label "${text}", expected "${wantLabel}"`);
      for (const e of await playheadErrors(t.page, tg.clip_index, want)) failures.push(`${label}: ${e}`);
      if (!data.evidence_only) {
        const got = await t.page.evaluate(() => Array.from(window.animsmithReport.sourcePositions("primary") || []));
        if (!same(got, framePositions(data, clip, want))) failures.push(`${label}: drawn positions are not the embedded frame ${want}`);
      }
    }
    if (shotPrefix) await shot(t.page, `${shotPrefix}-finding-${i}`);
  }
  return failures;
}
