// Shared helpers of the report's browser tests: launching Chromium through
// playwright-core, opening a report with every console error, page error
// and network request recorded, reading the embedded data, decoding canvas
// screenshots, and polling the viewer's window.animsmithReport hook.
//
// Configuration comes from the environment (tests/scripts/report_browser.sh
// sets it): ANIMSMITH_PLAYWRIGHT (the playwright-core module directory),
// ANIMSMITH_CHROMIUM (the executable), ANIMSMITH_REPORT_DIR (the generated
// reports and cases.json), ANIMSMITH_SCREENSHOTS (where every case's
// screenshot goes) and ANIMSMITH_BLENDREF (the C blend reference);
// ANIMSMITH_BROWSER_ONLY optionally narrows the pages (see cases).
"use strict";

import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const require = createRequire(import.meta.url);

export const env = {
  playwright: process.env.ANIMSMITH_PLAYWRIGHT || "playwright-core",
  chromium: process.env.ANIMSMITH_CHROMIUM || "/usr/bin/chromium",
  reports: process.env.ANIMSMITH_REPORT_DIR || "",
  screenshots: process.env.ANIMSMITH_SCREENSHOTS || "",
  blendref: process.env.ANIMSMITH_BLENDREF || "",
};

export const READY_TIMEOUT_MS = 30000;
const POLL_TIMEOUT_MS = 5000;

// The pages the script generated, cases.json: [{name, file, kinds}], kinds
// naming the test files that take the page (single, blend, evidence,
// comparison, corpus).
export function cases(kind) {
  const list = JSON.parse(fs.readFileSync(path.join(env.reports, "cases.json"), "utf8"));
  // ANIMSMITH_BROWSER_ONLY (a regular expression on case names) narrows a
  // run by hand while debugging one page.
  const only = process.env.ANIMSMITH_BROWSER_ONLY ? new RegExp(process.env.ANIMSMITH_BROWSER_ONLY) : null;
  return list.filter((c) => c.kinds.includes(kind) && (!only || only.test(c.name)));
}

export function reportPath(file) {
  return path.isAbsolute(file) ? file : path.join(env.reports, file);
}

export async function launch() {
  const { chromium } = require(env.playwright);
  return chromium.launch({
    executablePath: env.chromium,
    args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader"],
  });
}

// ---- the embedded data

const DATA_RE = /<script type="application\/json" id="animsmith-report-data">([\s\S]*?)<\/script>/;

export function readData(file) {
  const html = fs.readFileSync(reportPath(file), "utf8");
  const m = DATA_RE.exec(html);
  if (!m) throw new Error(`${file}: no embedded report data`);
  return JSON.parse(m[1]);
}

// A copy of a report with its data changed by edit(data): exercises viewer
// paths (refusals, omissions) the example assets do not reach. Written
// with the page builder's escapes, so the data block stays one script.
export function writeVariant(file, name, edit) {
  const html = fs.readFileSync(reportPath(file), "utf8");
  const m = DATA_RE.exec(html);
  if (!m) throw new Error(`${file}: no embedded report data`);
  const data = JSON.parse(m[1]);
  edit(data);
  const text = JSON.stringify(data)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026");
  const out = path.join(env.reports, name);
  const start = m.index + m[0].indexOf(">") + 1;
  fs.writeFileSync(out, html.slice(0, start) + text + html.slice(start + m[1].length));
  return out;
}

// Little-endian f32 base64 stream as binary64 values (exact widening).
export function decodeF32(b64) {
  const buf = Buffer.from(b64, "base64");
  const out = new Float64Array(buf.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = buf.readFloatLE(4 * i);
  return out;
}

// Bone positions of one frame of a clip (x, y, z per bone).
const decoded = new WeakMap();
export function framePositions(data, clip, frame) {
  const bones = data.skeleton.bones.length;
  if (!decoded.has(clip)) decoded.set(clip, decodeF32(clip.positions));
  return Array.from(decoded.get(clip).subarray(frame * bones * 3, (frame + 1) * bones * 3));
}

// ---- pages

// Opens a report (with an optional fragment) in a fresh context and
// records every problem the page shows: console errors, uncaught page
// errors, and any network request beyond the file:// document itself.
export async function openReport(browser, file, hash, options) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 1000 },
    colorScheme: (options && options.colorScheme) || "light",
  });
  const page = await context.newPage();
  const url = pathToFileURL(reportPath(file)).href;
  const problems = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
  });
  // A script error before the hook is ready ends the wait at once.
  let failed;
  const crashed = new Promise((_, no) => { failed = no; });
  crashed.catch(() => {});
  page.on("pageerror", (err) => {
    problems.push(`page error: ${err.message}`);
    failed(new Error(`page error: ${err.message}`));
  });
  page.on("request", (req) => {
    if (req.url().split("#")[0] !== url) problems.push(`network request: ${req.url()}`);
  });
  await page.goto(url + (hash ? "#" + hash : ""));
  try {
    await Promise.race([waitReady(page), crashed]);
  } catch (e) {
    await shot(page, `not-ready-${path.basename(file, ".html")}`).catch(() => {});
    await context.close();
    throw new Error(`${file}: window.animsmithReport.ready not set (${e.message.split("\n")[0]})` +
      (problems.length ? `\n  ${problems.join("\n  ")}` : ""));
  }
  return { page, context, problems, url };
}

export async function waitReady(page) {
  await page.waitForFunction(() => window.animsmithReport && window.animsmithReport.ready === true,
    null, { timeout: READY_TIMEOUT_MS });
}

// Screenshot of the case (a person looks at these) and the problem check.
export async function finish(t, name) {
  try {
    await shot(t.page, name);
    if (t.problems.length) throw new Error(`${name}:\n  ${t.problems.join("\n  ")}`);
  } finally {
    await t.context.close();
  }
}

export async function shot(page, name) {
  if (!env.screenshots) return;
  fs.mkdirSync(env.screenshots, { recursive: true });
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, "_");
  await page.screenshot({ path: path.join(env.screenshots, safe + ".png"), fullPage: true });
}

export function state(page) {
  return page.evaluate(() => window.animsmithReport.state());
}

// Polls state() until pred(state) holds; returns the last state either way,
// so the assertion that follows prints what the viewer actually did.
export async function until(page, pred, timeout) {
  const end = Date.now() + (timeout || POLL_TIMEOUT_MS);
  let s = await state(page);
  while (!pred(s) && Date.now() < end) {
    await page.waitForTimeout(50);
    s = await state(page);
  }
  return s;
}

// Two animation frames: enough for a viewer reacting to an event to have
// done so, when the assertion is that nothing changed.
export function settle(page) {
  return page.evaluate(() => new Promise((ok) =>
    requestAnimationFrame(() => requestAnimationFrame(() => ok()))));
}

export async function setHash(page, hash) {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await settle(page);
}

// ---- finding rows

// The clickable row of finding i in the single-clip form. Rows are looked
// for as [data-finding="i"], then #finding-i, then the i-th item of the
// first list under #findings; which one matched is returned for messages.
export async function findingRow(page, i) {
  const how = await page.evaluate((k) => {
    const root = document.getElementById("findings");
    if (!root) return null;
    if (root.querySelector(`[data-finding="${k}"]`)) return "data-finding";
    if (document.getElementById(`finding-${k}`)) return "id";
    const list = root.querySelector("ol, ul");
    return list && list.children[k] ? "list-item" : null;
  }, i);
  if (how === "data-finding") return { how, row: page.locator(`#findings [data-finding="${i}"]`).first() };
  if (how === "id") return { how, row: page.locator(`[id="finding-${i}"]`) };
  if (how === "list-item") return { how, row: page.locator("#findings").locator("ol, ul").first().locator(":scope > *").nth(i) };
  return { how: null, row: null };
}

// ---- chart playheads

// Every playhead of clip `clip` that is off its expected place at `frame`:
// g.playhead translated by (x1-x0)*frame/(N-1), g.playhead-dot's circle
// at point[frame] (its cx/cy plus any translate).
export function playheadErrors(page, clip, frame) {
  return page.evaluate(({ clip, frame }) => {
    const errors = [];
    const translate = (node) => {
      const m = /translate\(\s*([-+0-9.eE]+)(?:[\s,]+([-+0-9.eE]+))?\s*\)/.exec(node.getAttribute("transform") || "");
      return m ? [Number(m[1]), Number(m[2] || 0)] : [0, 0];
    };
    const heads = [];
    for (const fig of document.querySelectorAll("figure.chart")) {
      const own = fig.getAttribute("data-clip");
      for (const g of fig.querySelectorAll("g.playhead, g.playhead-dot")) {
        const c = g.getAttribute("data-clip") !== null ? g.getAttribute("data-clip") : own;
        if (c !== null && Number(c) === clip) heads.push([fig.id, g]);
      }
    }
    if (heads.length === 0) errors.push(`no chart playhead belongs to clip ${clip}`);
    for (const [id, g] of heads) {
      if (g.classList.contains("playhead")) {
        const x0 = Number(g.dataset.x0), x1 = Number(g.dataset.x1), n = Number(g.dataset.frames);
        const want = n > 1 ? (x1 - x0) * frame / (n - 1) : 0;
        const got = translate(g)[0];
        if (!(Math.abs(got - want) <= 0.01)) errors.push(`${id} g.playhead at dx ${got}, expected ${want} (frame ${frame})`);
      } else {
        const pts = (g.dataset.points || "").trim().split(/\s+/).map((p) => p.split(",").map(Number));
        const circle = g.querySelector("circle");
        if (!circle || !pts[frame]) { errors.push(`${id} g.playhead-dot has no circle or no point ${frame}`); continue; }
        const [tx, ty] = translate(circle);
        const [gx, gy] = translate(g);
        const x = Number(circle.getAttribute("cx") || 0) + tx + gx;
        const y = Number(circle.getAttribute("cy") || 0) + ty + gy;
        if (!(Math.abs(x - pts[frame][0]) <= 0.01 && Math.abs(y - pts[frame][1]) <= 0.01))
          errors.push(`${id} g.playhead-dot at ${x},${y}, expected ${pts[frame]} (frame ${frame})`);
      }
    }
    return errors;
  }, { clip, frame });
}

// ---- canvas pixels

// Decodes an 8-bit, non-interlaced RGB/RGBA PNG (what Chromium's
// screenshots are) into {width, height, rgba}.
export function decodePng(buf) {
  let off = 8, width = 0, height = 0, type = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const kind = buf.toString("latin1", off + 4, off + 8);
    const body = buf.subarray(off + 8, off + 8 + len);
    if (kind === "IHDR") {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[12] !== 0) throw new Error("unsupported PNG depth or interlace");
      type = body[9];
    } else if (kind === "IDAT") idat.push(body);
    off += 12 + len;
  }
  const bpp = type === 6 ? 4 : type === 2 ? 3 : 0;
  if (!bpp) throw new Error(`unsupported PNG colour type ${type}`);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * bpp, rgba = new Uint8Array(width * height * 4);
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Uint8Array.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? line[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      let v = 0;
      if (filter === 1) v = a;
      else if (filter === 2) v = b;
      else if (filter === 3) v = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      line[i] = (line[i] + v) & 255;
    }
    for (let x = 0; x < width; x++) {
      rgba[(y * width + x) * 4] = line[x * bpp];
      rgba[(y * width + x) * 4 + 1] = line[x * bpp + 1];
      rgba[(y * width + x) * 4 + 2] = line[x * bpp + 2];
      rgba[(y * width + x) * 4 + 3] = bpp === 4 ? line[x * bpp + 3] : 255;
    }
    prev = line;
  }
  return { width, height, rgba };
}

// How many pixels differ (any channel by more than 8) from the image's
// most common colour, which is the canvas background.
export function nonBackgroundPixels(img) {
  const counts = new Map();
  for (let i = 0; i < img.rgba.length; i += 4) {
    const key = (img.rgba[i] << 16) | (img.rgba[i + 1] << 8) | img.rgba[i + 2];
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  let bg = 0, best = -1;
  for (const [k, n] of counts) if (n > best) { best = n; bg = k; }
  const br = bg >> 16, bgc = (bg >> 8) & 255, bb = bg & 255;
  let n = 0;
  for (let i = 0; i < img.rgba.length; i += 4)
    if (Math.abs(img.rgba[i] - br) > 8 || Math.abs(img.rgba[i + 1] - bgc) > 8 || Math.abs(img.rgba[i + 2] - bb) > 8) n++;
  return { count: n, background: [br, bgc, bb], total: img.rgba.length / 4 };
}

export function pixelsDiffer(a, b) {
  if (a.width !== b.width || a.height !== b.height) return a.width * a.height;
  let n = 0;
  for (let i = 0; i < a.rgba.length; i += 4)
    if (Math.abs(a.rgba[i] - b.rgba[i]) > 8 || Math.abs(a.rgba[i + 1] - b.rgba[i + 1]) > 8 || Math.abs(a.rgba[i + 2] - b.rgba[i + 2]) > 8) n++;
  return n;
}

// The first WebGL canvas of the pose view, decoded (null without one).
export async function canvasImage(page, index) {
  const canvases = page.locator("#viewer canvas");
  if ((await canvases.count()) <= (index || 0)) return null;
  await settle(page);
  return decodePng(await canvases.nth(index || 0).screenshot());
}

// The minimum a drawn skeleton, grid and trails give on any of our pages.
export const MIN_DRAWN_PIXELS = 200;
