/* Small helpers shared by the viewer: DOM building (text only, never
 * markup), base64 decoding and number formatting. */

const SVG_NS = "http://www.w3.org/2000/svg";

/* Builds an element; attrs values go through setAttribute, children are
 * nodes or strings (inserted as text nodes), so asset text stays text. */
function el(tag, attrs, children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const key of Object.keys(attrs)) {
      const v = attrs[key];
      if (v === null || v === undefined || v === false) continue;
      node.setAttribute(key, v === true ? "" : String(v));
    }
  }
  if (children !== undefined && children !== null) appendChildren(node, children);
  return node;
}

function appendChildren(node, children) {
  const list = Array.isArray(children) ? children : [children];
  for (const c of list) {
    if (c === null || c === undefined) continue;
    node.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
}

function setText(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

function clearNode(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/* base64 -> bytes. Each stream is decoded once and cached by its owner, so
 * this runs on selection changes, never per repaint. */
function base64Bytes(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/* Little-endian f32 stream; DataView keeps the result right on any host. */
function decodeF32(text) {
  const bytes = base64Bytes(text);
  const n = bytes.length >> 2;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

function decodeU16(text) {
  const bytes = base64Bytes(text);
  const n = bytes.length >> 1;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) out[i] = view.getUint16(i * 2, true);
  return out;
}

function decodeU32(text) {
  const bytes = base64Bytes(text);
  const n = bytes.length >> 2;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

function clampInt(v, lo, hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* Frame nearest normalized phase u on a grid of n frames. */
function phaseFrame(u, n) {
  if (n <= 1) return 0;
  return clampInt(Math.round(u * (n - 1)), 0, n - 1);
}

function framePhase(f, n) {
  return n <= 1 ? 0 : f / (n - 1);
}

function fmtTime(t) {
  return "t = " + (Number.isFinite(t) ? t.toFixed(3) : "?") + " s";
}

function fmtFrame(f, n) {
  return "frame " + f + " / " + Math.max(0, n - 1);
}

function fmtValue(v) {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  return String(v);
}

/* Names held by exactly one clip resolve; a missing or twice-held name
 * gives -1. */
function uniqueClipIndex(clips, name) {
  let found = -1;
  for (let i = 0; i < clips.length; i++) {
    if (clips[i].name === name) {
      if (found >= 0) return -1;
      found = i;
    }
  }
  return found;
}
