/* Theme and embed options, and the design tokens the WebGL view draws
 * with: the stylesheet holds every colour once (light and dark values), so
 * the canvas reads the same tokens as the page instead of its own list. */

const GL_TOKENS = ["canvas", "grid-major", "grid-minor", "bone", "joint", "highlight",
  "trail-root", "trail-hips", "left", "right", "blend", "before", "after", "mesh", "mq-mark"];

const theme = {
  pinned: null,                 /* "light" | "dark" | null (follow the reader) */
  embed: false,
  colors: {},                   /* token -> [r, g, b, a] in 0..1 */
  media: window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null,
  onChange: null,
};

function themeResolved() {
  if (theme.pinned) return theme.pinned;
  return theme.media && theme.media.matches ? "dark" : "light";
}

function themePin(value) {
  theme.pinned = value === "light" || value === "dark" ? value : null;
  const root = document.documentElement;
  if (theme.pinned) root.setAttribute("data-theme", theme.pinned);
  else root.removeAttribute("data-theme");
  themeReadColors();
}

function themeSetEmbed(on) {
  theme.embed = !!on;
  if (theme.embed) document.documentElement.setAttribute("data-embed", "1");
  else document.documentElement.removeAttribute("data-embed");
}

function parseCssColor(text, out) {
  const m = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+%?))?/.exec(text || "");
  if (!m) { out[0] = 0.5; out[1] = 0.5; out[2] = 0.5; out[3] = 1; return out; }
  out[0] = Number(m[1]) / 255; out[1] = Number(m[2]) / 255; out[2] = Number(m[3]) / 255;
  let a = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : Number(m[4]);
  out[3] = Number.isFinite(a) ? a : 1;
  return out;
}

/* Resolves each token through a probe element's computed colour, which
 * also resolves light-dark() for the active scheme. */
function themeReadColors() {
  const probe = el("span", { "aria-hidden": "true", class: "token-probe" });
  document.body.appendChild(probe);
  for (const name of GL_TOKENS) {
    probe.style.color = "var(--" + name + ")";
    theme.colors[name] = parseCssColor(getComputedStyle(probe).color, theme.colors[name] || [0, 0, 0, 1]);
  }
  document.body.removeChild(probe);
  if (theme.onChange) theme.onChange();
}

function themeInit() {
  if (theme.media) {
    const listener = () => { if (!theme.pinned) themeReadColors(); };
    if (theme.media.addEventListener) theme.media.addEventListener("change", listener);
    else if (theme.media.addListener) theme.media.addListener(listener);
  }
  themeReadColors();
}

/* The theme and embed keys mean the same in both report forms. */
function applyThemeOptions(options) {
  if (options.has("theme")) {
    const o = options.get("theme");
    themePin(o.ok ? o.value : null);
  }
  if (options.has("embed")) {
    const o = options.get("embed");
    themeSetEmbed(o.ok && o.value === "1");
  }
}
