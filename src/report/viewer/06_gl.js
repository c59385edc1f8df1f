/* WebGL2 programs and buffers: screen-space-wide segments (solid or
 * dashed along a line parameter), round joint points, and a linear-blend
 * skinned mesh whose joint matrices live in a float texture (one row per
 * joint, so rigs of hundreds of joints fit where a uniform array would
 * not). */

const SEG_VS = `#version 300 es
in vec2 a_corner;
in vec4 a_a;
in vec4 a_b;
uniform mat4 u_vp;
uniform vec2 u_px;
uniform float u_width;
out float v_param;
void main() {
  vec4 ca = u_vp * vec4(a_a.xyz, 1.0);
  vec4 cb = u_vp * vec4(a_b.xyz, 1.0);
  vec2 sa = ca.xy / max(ca.w, 1e-6) * u_px * 0.5;
  vec2 sb = cb.xy / max(cb.w, 1e-6) * u_px * 0.5;
  vec2 d = sb - sa;
  float l = length(d);
  d = l > 1e-6 ? d / l : vec2(1.0, 0.0);
  vec2 n = vec2(-d.y, d.x);
  vec4 c = mix(ca, cb, a_corner.x);
  c.xy += n * a_corner.y * u_width / u_px * c.w;
  gl_Position = c;
  v_param = mix(a_a.w, a_b.w, a_corner.x);
}`;

const SEG_FS = `#version 300 es
precision highp float;
in float v_param;
uniform vec4 u_color;
uniform float u_dash;
out vec4 o_color;
void main() {
  if (u_dash > 0.0 && fract(v_param / u_dash) > 0.55) discard;
  o_color = u_color;
}`;

const PT_VS = `#version 300 es
in vec3 a_pos;
uniform mat4 u_vp;
uniform float u_size;
void main() {
  gl_Position = u_vp * vec4(a_pos, 1.0);
  gl_PointSize = u_size;
}`;

const PT_FS = `#version 300 es
precision highp float;
uniform vec4 u_color;
uniform float u_ring;
uniform float u_square;
out vec4 o_color;
void main() {
  vec2 d = gl_PointCoord - 0.5;
  float r2 = dot(d, d);
  if (u_square < 0.5 && (r2 > 0.25 || r2 < u_ring)) discard;
  o_color = u_color;
}`;

const MESH_VS = `#version 300 es
in vec3 a_pos;
in vec3 a_nrm;
in uvec4 a_joints;
in vec4 a_weights;
uniform highp sampler2D u_jointTex;
uniform mat4 u_vp;
out vec3 v_nrm;
mat4 jointMatrix(uint j) {
  int r = int(j);
  return mat4(texelFetch(u_jointTex, ivec2(0, r), 0), texelFetch(u_jointTex, ivec2(1, r), 0),
              texelFetch(u_jointTex, ivec2(2, r), 0), texelFetch(u_jointTex, ivec2(3, r), 0));
}
void main() {
  mat4 m = a_weights.x * jointMatrix(a_joints.x) + a_weights.y * jointMatrix(a_joints.y) +
           a_weights.z * jointMatrix(a_joints.z) + a_weights.w * jointMatrix(a_joints.w);
  v_nrm = mat3(m) * a_nrm;
  gl_Position = u_vp * (m * vec4(a_pos, 1.0));
}`;

const MESH_FS = `#version 300 es
precision highp float;
in vec3 v_nrm;
uniform vec4 u_color;
uniform vec3 u_light;
out vec4 o_color;
void main() {
  vec3 n = normalize(v_nrm);
  float l = abs(dot(n, u_light));
  o_color = vec4(u_color.rgb * (0.35 + 0.65 * l), 1.0);
}`;

function glProgram(gl, vsText, fsText) {
  function shader(type, text) {
    const s = gl.createShader(type);
    gl.shaderSource(s, text);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error("shader: " + gl.getShaderInfoLog(s));
    return s;
  }
  const p = gl.createProgram();
  gl.attachShader(p, shader(gl.VERTEX_SHADER, vsText));
  gl.attachShader(p, shader(gl.FRAGMENT_SHADER, fsText));
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error("program: " + gl.getProgramInfoLog(p));
  const info = { program: p, attr: {}, uni: {} };
  const na = gl.getProgramParameter(p, gl.ACTIVE_ATTRIBUTES);
  for (let i = 0; i < na; i++) { const a = gl.getActiveAttrib(p, i); info.attr[a.name] = gl.getAttribLocation(p, a.name); }
  const nu = gl.getProgramParameter(p, gl.ACTIVE_UNIFORMS);
  for (let i = 0; i < nu; i++) { const u = gl.getActiveUniform(p, i); info.uni[u.name] = gl.getUniformLocation(p, u.name); }
  return info;
}

function makeGl(canvas) {
  const gl = canvas.getContext("webgl2", { antialias: true, preserveDrawingBuffer: true });
  if (!gl) return null;
  const ctx = {
    gl,
    seg: glProgram(gl, SEG_VS, SEG_FS),
    pt: glProgram(gl, PT_VS, PT_FS),
    mesh: glProgram(gl, MESH_VS, MESH_FS),
    corners: gl.createBuffer(),
  };
  gl.bindBuffer(gl.ARRAY_BUFFER, ctx.corners);
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, -1, 0, 1, 1, -1, 1, 1]), gl.STATIC_DRAW);
  return ctx;
}

/* Segments: 8 floats each (ax ay az param_a bx by bz param_b), drawn as
 * instanced quads. data is kept for dynamic batches refilled in place. */
function makeSegBatch(ctx, capacity, staticData) {
  const gl = ctx.gl, s = ctx.seg;
  const b = { vao: gl.createVertexArray(), buf: gl.createBuffer(), count: 0, capacity, data: null };
  gl.bindVertexArray(b.vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, ctx.corners);
  gl.enableVertexAttribArray(s.attr.a_corner);
  gl.vertexAttribPointer(s.attr.a_corner, 2, gl.FLOAT, false, 0, 0);
  gl.bindBuffer(gl.ARRAY_BUFFER, b.buf);
  if (staticData) {
    gl.bufferData(gl.ARRAY_BUFFER, staticData, gl.STATIC_DRAW);
    b.count = staticData.length / 8;
  } else {
    b.data = new Float32Array(Math.max(1, capacity) * 8);
    gl.bufferData(gl.ARRAY_BUFFER, b.data.byteLength, gl.DYNAMIC_DRAW);
  }
  gl.enableVertexAttribArray(s.attr.a_a);
  gl.vertexAttribPointer(s.attr.a_a, 4, gl.FLOAT, false, 32, 0);
  gl.vertexAttribDivisor(s.attr.a_a, 1);
  gl.enableVertexAttribArray(s.attr.a_b);
  gl.vertexAttribPointer(s.attr.a_b, 4, gl.FLOAT, false, 32, 16);
  gl.vertexAttribDivisor(s.attr.a_b, 1);
  gl.bindVertexArray(null);
  return b;
}

function segBatchUpload(ctx, b, count) {
  const gl = ctx.gl;
  b.count = count;
  gl.bindBuffer(gl.ARRAY_BUFFER, b.buf);
  gl.bufferSubData(gl.ARRAY_BUFFER, 0, b.data, 0, count * 8);
}

function makePointBatch(ctx, capacity) {
  const gl = ctx.gl;
  const b = { vao: gl.createVertexArray(), buf: gl.createBuffer(), count: 0, capacity, data: new Float32Array(Math.max(1, capacity) * 3) };
  gl.bindVertexArray(b.vao);
  gl.bindBuffer(gl.ARRAY_BUFFER, b.buf);
  gl.bufferData(gl.ARRAY_BUFFER, b.data.byteLength, gl.DYNAMIC_DRAW);
  gl.enableVertexAttribArray(ctx.pt.attr.a_pos);
  gl.vertexAttribPointer(ctx.pt.attr.a_pos, 3, gl.FLOAT, false, 0, 0);
  gl.bindVertexArray(null);
  return b;
}

function pointBatchUpload(ctx, b, count) {
  const gl = ctx.gl;
  b.count = count;
  gl.bindBuffer(gl.ARRAY_BUFFER, b.buf);
  gl.bufferSubData(gl.ARRAY_BUFFER, 0, b.data, 0, count * 3);
}

function freeBatch(ctx, b) {
  if (!b) return;
  ctx.gl.deleteBuffer(b.buf);
  ctx.gl.deleteVertexArray(b.vao);
}

function drawSegs(ctx, b, vp, px, color, width, dash) {
  if (!b || b.count === 0) return;
  const gl = ctx.gl, s = ctx.seg;
  gl.useProgram(s.program);
  gl.uniformMatrix4fv(s.uni.u_vp, false, vp);
  gl.uniform2f(s.uni.u_px, px[0], px[1]);
  gl.uniform1f(s.uni.u_width, width);
  gl.uniform4fv(s.uni.u_color, color);
  gl.uniform1f(s.uni.u_dash, dash);
  gl.bindVertexArray(b.vao);
  gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, b.count);
}

/* Round points (a ring when ring is set), or whole squares: the mesh-
 * quality marks, told apart from the joints by their shape. */
function drawPoints(ctx, b, first, count, vp, color, size, ring, square) {
  if (!b || count <= 0) return;
  const gl = ctx.gl, p = ctx.pt;
  gl.useProgram(p.program);
  gl.uniformMatrix4fv(p.uni.u_vp, false, vp);
  gl.uniform4fv(p.uni.u_color, color);
  gl.uniform1f(p.uni.u_size, size);
  gl.uniform1f(p.uni.u_ring, ring ? 0.06 : -1);
  gl.uniform1f(p.uni.u_square, square ? 1 : 0);
  gl.bindVertexArray(b.vao);
  gl.drawArrays(gl.POINTS, first, count);
}
