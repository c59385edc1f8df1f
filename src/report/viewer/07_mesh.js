/* The skinned mesh: vertex streams uploaded once; per repaint each skin's
 * joint matrices (bone model matrix at the frame times the joint's inverse
 * bind matrix) are written into preallocated storage and uploaded as one
 * RGBA32F texture row per joint. */

/* Smooth normals from the rest-pose triangles, for primitives that carry
 * none. */
function meshNormals(pos, idx) {
  const n = new Float32Array(pos.length);
  for (let t = 0; t + 2 < idx.length; t += 3) {
    const a = idx[t] * 3, b = idx[t + 1] * 3, c = idx[t + 2] * 3;
    const ux = pos[b] - pos[a], uy = pos[b + 1] - pos[a + 1], uz = pos[b + 2] - pos[a + 2];
    const vx = pos[c] - pos[a], vy = pos[c + 1] - pos[a + 1], vz = pos[c + 2] - pos[a + 2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    for (const o of [a, b, c]) { n[o] += nx; n[o + 1] += ny; n[o + 2] += nz; }
  }
  return n;
}

/* out += w * (the column-major matrix at mats[m] applied to point x, y,
 * z): one influence of a linear-blend-skinned point, as the shader adds
 * it. */
function addSkinnedInfluence(out, w, mats, m, x, y, z) {
  out[0] += w * (mats[m] * x + mats[m + 4] * y + mats[m + 8] * z + mats[m + 12]);
  out[1] += w * (mats[m + 1] * x + mats[m + 5] * y + mats[m + 9] * z + mats[m + 13]);
  out[2] += w * (mats[m + 2] * x + mats[m + 6] * y + mats[m + 10] * z + mats[m + 14]);
}

/* Grows box ({min, max}) by each vertex of a primitive posed with its
 * skin's joint matrices (bone model matrix times inverse bind). */
function growSkinnedBounds(box, pos, joints, weights, mats) {
  for (let v = 0; v < pos.length / 3; v++) {
    const x = pos[v * 3], y = pos[v * 3 + 1], z = pos[v * 3 + 2];
    const p = [0, 0, 0];
    for (let k = 0; k < 4; k++) {
      const w = weights[v * 4 + k];
      if (w !== 0) addSkinnedInfluence(p, w, mats, joints[v * 4 + k] * 16, x, y, z);
    }
    for (let k = 0; k < 3; k++) {
      if (!Number.isFinite(p[k])) continue;
      if (p[k] < box.min[k]) box.min[k] = p[k];
      if (p[k] > box.max[k]) box.max[k] = p[k];
    }
  }
}

/* fitMatrices (optional, one frame of bone matrices): also measure the
 * mesh posed by them into meshGl.fitBounds, while the vertex streams are
 * still at hand (they are not kept after upload). */
function makeMeshGl(ctx, mesh, fitMatrices) {
  const gl = ctx.gl, m = ctx.mesh;
  const mb = mesh.matrix_bones.length;
  const skins = mesh.skins.map((s) => {
    const ibm = decodeF32(s.inverse_bind);
    const joints = Int32Array.from(s.joints);
    let ok = ibm.length === joints.length * 16 && joints.length > 0;
    for (const k of joints) if (!(k >= 0 && k < mb)) ok = false;
    const tex = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, tex);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, 4, Math.max(1, joints.length));
    return { ok, ibm, joints, tex, mats: new Float32Array(joints.length * 16) };
  });
  const fit = fitMatrices && fitMatrices.length === mb * 16 ? { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] } : null;
  if (fit) {
    for (const s of skins) {
      if (!s.ok) continue;
      for (let j = 0; j < s.joints.length; j++) mat4MulAt(s.mats, j * 16, fitMatrices, s.joints[j] * 16, s.ibm, j * 16);
    }
  }
  const prims = [];
  for (let source = 0; source < mesh.primitives.length; source++) {
    const p = mesh.primitives[source];
    const skin = skins[p.skin];
    if (!skin || !skin.ok) continue;
    const pos = decodeF32(p.positions);
    const joints = decodeU16(p.joints);
    const weights = decodeF32(p.weights);
    const idx = decodeU32(p.indices);
    const nv = p.vertex_count;
    if (pos.length !== nv * 3 || joints.length !== nv * 4 || weights.length !== nv * 4 || idx.length !== p.index_count) continue;
    let bad = false;
    for (let i = 0; i < idx.length && !bad; i++) if (idx[i] >= nv) bad = true;
    for (let i = 0; i < joints.length && !bad; i++) if (joints[i] >= skin.joints.length) bad = true;
    if (bad) continue;
    let nrm = typeof p.normals === "string" ? decodeF32(p.normals) : null;
    if (!nrm || nrm.length !== nv * 3) nrm = meshNormals(pos, idx);
    if (fit) growSkinnedBounds(fit, pos, joints, weights, skin.mats);
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    const bufs = [];
    function attr(loc, data, size, integer) {
      const buf = gl.createBuffer();
      bufs.push(buf);
      gl.bindBuffer(gl.ARRAY_BUFFER, buf);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      if (loc === undefined || loc < 0) return;
      gl.enableVertexAttribArray(loc);
      if (integer) gl.vertexAttribIPointer(loc, size, gl.UNSIGNED_SHORT, 0, 0);
      else gl.vertexAttribPointer(loc, size, gl.FLOAT, false, 0, 0);
    }
    attr(m.attr.a_pos, pos, 3, false);
    attr(m.attr.a_nrm, nrm, 3, false);
    attr(m.attr.a_joints, joints, 4, true);
    attr(m.attr.a_weights, weights, 4, false);
    const ibuf = gl.createBuffer();
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ibuf);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, idx, gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    prims.push({ vao, count: idx.length, skin: p.skin, source });
  }
  return { skins, prims, matrixBones: mb, usedSkins: Array.from(new Set(prims.map((p) => p.skin))),
    fitBounds: fit && prims.length > 0 ? fit : null };
}

/* Draws every primitive posed at frame of a clip's bone matrices. */
function drawMesh(ctx, meshGl, boneMatrices, frame, vp, color, light) {
  if (!meshGl || meshGl.prims.length === 0 || !boneMatrices) return;
  const gl = ctx.gl, m = ctx.mesh;
  const base = frame * meshGl.matrixBones;
  for (const si of meshGl.usedSkins) {
    const s = meshGl.skins[si];
    for (let j = 0; j < s.joints.length; j++) mat4MulAt(s.mats, j * 16, boneMatrices, (base + s.joints[j]) * 16, s.ibm, j * 16);
    gl.bindTexture(gl.TEXTURE_2D, s.tex);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 4, s.joints.length, gl.RGBA, gl.FLOAT, s.mats);
  }
  gl.useProgram(m.program);
  gl.uniformMatrix4fv(m.uni.u_vp, false, vp);
  gl.uniform4fv(m.uni.u_color, color);
  gl.uniform3fv(m.uni.u_light, light);
  gl.uniform1i(m.uni.u_jointTex, 0);
  gl.activeTexture(gl.TEXTURE0);
  for (const p of meshGl.prims) {
    gl.bindTexture(gl.TEXTURE_2D, meshGl.skins[p.skin].tex);
    gl.bindVertexArray(p.vao);
    gl.drawElements(gl.TRIANGLES, p.count, gl.UNSIGNED_INT, 0);
  }
}
