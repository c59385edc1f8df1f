// Browser-side figures of HTML reports: for each page given, the time from
// navigation to the viewer's first drawn frame (window.animsmithReport.ready),
// the page's size, and the frame rate of 3 s of playback, in headless
// Chromium (software rendering: a desktop GPU draws faster). Run through
// bench/run_report_bench.sh, which writes the pages and finds the browser.
//
//   node bench/report_render.mjs PAGE.html...
"use strict";

import { createRequire } from "node:module";
import fs from "node:fs";
import { pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.ANIMSMITH_PLAYWRIGHT || "playwright-core");

const pages = process.argv.slice(2);
if (!pages.length || pages.includes("--help")) {
  console.log("usage: node bench/report_render.mjs PAGE.html...");
  process.exit(pages.length ? 0 : 2);
}
const browser = await chromium.launch({
  executablePath: process.env.ANIMSMITH_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader"],
});
for (const file of pages) {
  const best = { ready: Infinity, fps: 0 };
  for (let run = 0; run < 3; run++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const t0 = Date.now();
    await page.goto(pathToFileURL(file).href);
    await page.waitForFunction(() => window.animsmithReport && window.animsmithReport.ready,
                               null, { timeout: 60000 });
    best.ready = Math.min(best.ready, Date.now() - t0);
    const fps = await page.evaluate(async () => {
      const r = window.animsmithReport;
      if (r.state().clip === null || r.state().clip === undefined) return 0;
      let frames = 0;
      const count = () => { frames++; if (!done) requestAnimationFrame(count); };
      let done = false;
      r.togglePlay();
      requestAnimationFrame(count);
      await new Promise((ok) => setTimeout(ok, 3000));
      done = true;
      r.togglePlay();
      return frames / 3;
    });
    best.fps = Math.max(best.fps, fps);
    await page.close();
  }
  const mb = fs.statSync(file).size / 1e6;
  console.log(`${file}: ${mb.toFixed(2)} MB, first frame after ${best.ready} ms, ` +
              `${best.fps.toFixed(1)} fps while playing (best of 3)`);
}
await browser.close();
