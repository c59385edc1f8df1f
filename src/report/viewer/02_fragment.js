/* The URL fragment: &-separated key=value options. One bounded parser;
 * the controllers decide what each option does. */

const FRAGMENT_MAX_CHARS = 4096;
const FRAGMENT_MAX_PAIRS = 64;
const FRAGMENT_KEYS = ["theme", "embed", "frame", "clip", "with", "finding"];

/* Returns {options, anchors}: options maps a known key present in the
 * fragment to {ok, value} (ok false: the value could not be decoded);
 * anchors lists bare tokens without "=" (the comparison's
 * #finding-<side>-<index> links). A fragment over the size bounds is
 * ignored as a whole, so a hostile link cannot make the parser work hard.
 * Unknown keys and malformed pairs are dropped; the last of a repeated key
 * wins. */
function parseFragment(hash) {
  const result = { options: new Map(), anchors: [] };
  let text = typeof hash === "string" ? hash : "";
  if (text.charAt(0) === "#") text = text.slice(1);
  if (text.length === 0 || text.length > FRAGMENT_MAX_CHARS) return result;
  const pairs = text.split("&");
  if (pairs.length > FRAGMENT_MAX_PAIRS) return result;
  for (const pair of pairs) {
    if (pair.length === 0) continue;
    const eq = pair.indexOf("=");
    if (eq < 0) {
      result.anchors.push(pair);
      continue;
    }
    const key = pair.slice(0, eq);
    if (FRAGMENT_KEYS.indexOf(key) < 0) continue;
    try {
      result.options.set(key, { ok: true, value: decodeURIComponent(pair.slice(eq + 1)) });
    } catch (e) {
      result.options.set(key, { ok: false, value: null });
    }
  }
  return result;
}

/* A non-negative decimal index, or null when the text is not one. */
function parseIndex(text) {
  if (typeof text !== "string" || !/^[0-9]{1,15}$/.test(text)) return null;
  return Number(text);
}
