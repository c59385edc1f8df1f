/* The illustrative blend in binary64: translation and scale lerp, rotation
 * shortest-hemisphere nlerp, local = T*R*S (column vectors), world[b] =
 * world[parent] * local[b]. Storage is allocated per skeleton, so a
 * repaint does one O(bones) pass and no allocation. */

const F32_MAX = 3.4028234663852886e38;

function makeBlender(parents) {
  const n = parents.length;
  const world = new Float64Array(n * 12);    /* 3x4 affine, column-major */
  const out = new Float64Array(n * 3);
  let topologyOk = true;
  for (let i = 0; i < n; i++) if (parents[i] !== -1 && !(parents[i] >= 0 && parents[i] < i)) topologyOk = false;
  const local = new Float64Array(12);

  /* Fills out from frames fa of a and fb of b (f32 streams, 10 per bone)
   * at interior weight w. Returns false when a position is not finite or
   * not representable as f32. */
  function blend(a, fa, b, fb, w) {
    if (!topologyOk) return false;
    const u = 1 - w;
    const oa = fa * n * LOCAL_RECORD, ob = fb * n * LOCAL_RECORD;
    for (let i = 0; i < n; i++) {
      const ra = oa + i * LOCAL_RECORD, rb = ob + i * LOCAL_RECORD;
      const tx = u * a[ra] + w * b[rb], ty = u * a[ra + 1] + w * b[rb + 1], tz = u * a[ra + 2] + w * b[rb + 2];
      let ax = a[ra + 3], ay = a[ra + 4], az = a[ra + 5], aw = a[ra + 6];
      let bx = b[rb + 3], by = b[rb + 4], bz = b[rb + 5], bw = b[rb + 6];
      const la = Math.sqrt(ax * ax + ay * ay + az * az + aw * aw);
      const lb = Math.sqrt(bx * bx + by * by + bz * bz + bw * bw);
      ax /= la; ay /= la; az /= la; aw /= la;
      bx /= lb; by /= lb; bz /= lb; bw /= lb;
      if (ax * bx + ay * by + az * bz + aw * bw < 0) { bx = -bx; by = -by; bz = -bz; bw = -bw; }
      let qx = u * ax + w * bx, qy = u * ay + w * by, qz = u * az + w * bz, qw = u * aw + w * bw;
      const lq = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
      qx /= lq; qy /= lq; qz /= lq; qw /= lq;
      const sx = u * a[ra + 7] + w * b[rb + 7], sy = u * a[ra + 8] + w * b[rb + 8], sz = u * a[ra + 9] + w * b[rb + 9];
      /* R * S: rotation columns scaled by sx, sy, sz. */
      local[0] = (1 - 2 * (qy * qy + qz * qz)) * sx;
      local[1] = 2 * (qx * qy + qz * qw) * sx;
      local[2] = 2 * (qx * qz - qy * qw) * sx;
      local[3] = 2 * (qx * qy - qz * qw) * sy;
      local[4] = (1 - 2 * (qx * qx + qz * qz)) * sy;
      local[5] = 2 * (qy * qz + qx * qw) * sy;
      local[6] = 2 * (qx * qz + qy * qw) * sz;
      local[7] = 2 * (qy * qz - qx * qw) * sz;
      local[8] = (1 - 2 * (qx * qx + qy * qy)) * sz;
      local[9] = tx; local[10] = ty; local[11] = tz;
      const o = i * 12, p = parents[i];
      if (p < 0) {
        for (let k = 0; k < 12; k++) world[o + k] = local[k];
      } else {
        const q = p * 12;
        for (let c = 0; c < 4; c++) {
          const l0 = local[c * 3], l1 = local[c * 3 + 1], l2 = local[c * 3 + 2];
          for (let r = 0; r < 3; r++) {
            world[o + c * 3 + r] = world[q + r] * l0 + world[q + 3 + r] * l1 + world[q + 6 + r] * l2 +
              (c === 3 ? world[q + 9 + r] : 0);
          }
        }
      }
      for (let r = 0; r < 3; r++) {
        const v = world[o + 9 + r];
        if (!Number.isFinite(v) || Math.abs(v) > F32_MAX) return false;
        out[i * 3 + r] = v;
      }
    }
    return true;
  }

  return { blend, out, topologyOk };
}
