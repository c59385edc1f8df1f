/* Decoded clip streams. Positions and bone matrices are decoded once per
 * clip on first use; local transform streams only for the selected pair,
 * at most two at a time, because they exist only for the blend pane. */

const LOCAL_RECORD = 10;
const decoded = new WeakMap();      /* clip -> {positions, boneMatrices} */
let localCache = [];                /* [{clip, data, reason}] at most two */

function clipStreams(clip, boneCount, matrixBoneCount) {
  let d = decoded.get(clip);
  if (d) return d;
  d = { positions: null, boneMatrices: null };
  const n = clip.frame_count;
  if (typeof clip.positions === "string") {
    const p = decodeF32(clip.positions);
    if (p.length === n * boneCount * 3) d.positions = p;
  }
  if (typeof clip.bone_matrices === "string" && matrixBoneCount > 0) {
    const m = decodeF32(clip.bone_matrices);
    if (m.length === n * matrixBoneCount * 16) d.boneMatrices = m;
  }
  decoded.set(clip, d);
  return d;
}

/* Validates a clip's local stream as the blend needs it: the exact record
 * count, finite components, rotations of length 1 +/- 1e-4. */
function decodeLocal(clip, boneCount) {
  if (typeof clip.local !== "string") {
    return { data: null, reason: clip.local_omission || "clip \u201c" + clip.name + "\u201d carries no sampled local transforms" };
  }
  const data = decodeF32(clip.local);
  if (data.length !== clip.frame_count * boneCount * LOCAL_RECORD) {
    return { data: null, reason: "clip \u201c" + clip.name + "\u201d has a local transform stream of the wrong length" };
  }
  for (let r = 0; r < data.length; r += LOCAL_RECORD) {
    for (let c = 0; c < LOCAL_RECORD; c++) {
      if (!Number.isFinite(data[r + c])) {
        return { data: null, reason: "clip \u201c" + clip.name + "\u201d: a sampled local transform component is not finite" };
      }
    }
    const len = Math.hypot(data[r + 3], data[r + 4], data[r + 5], data[r + 6]);
    if (!(Math.abs(len - 1) <= 1e-4)) {
      return { data: null, reason: "clip \u201c" + clip.name + "\u201d: a sampled rotation's length is outside 1 +/- 1e-4" };
    }
  }
  return { data, reason: null };
}

/* The local streams of the selected pair; anything else is dropped. */
function localPair(a, b, boneCount) {
  const keep = [];
  for (const clip of [a, b]) {
    let entry = localCache.find((e) => e.clip === clip);
    if (!entry) entry = Object.assign({ clip }, decodeLocal(clip, boneCount));
    keep.push(entry);
  }
  localCache = keep;
  return keep;
}

function localRelease() {
  localCache = [];
}
