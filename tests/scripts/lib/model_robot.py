#!/usr/bin/env python3
"""Drives `animsmith model serve` over JSON-RPC to build a small robot.

Used by tests/scripts/model_rpc_robot.sh: usage model_robot.py ANIMSMITH OUT.glb.
Builds the robot batch by batch, pages every inspect domain to the end by
next_offset, undoes and redoes, retries a request id, is refused a stale
head, exercises the envelope errors, and compiles to OUT.glb. Every failed
expectation is printed; the exit status is 1 when any failed.
"""
import base64
import hashlib
import json
import subprocess
import sys

REPLY_CAP = 12288
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL " + what)
    return cond


class Server:
    def __init__(self, binary, args=()):
        self.proc = subprocess.Popen([binary, "model", "serve", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 1
        self.ids = set()

    def raw(self, line):
        """Sends one raw line; returns the parsed reply and its byte size."""
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        check(out.endswith(b"\n"), "reply is one line")
        return json.loads(out), len(out) - 1

    def call(self, method, params, capped=True):
        rid = self.next_id
        self.next_id += 1
        check(rid not in self.ids, "request id %d unique" % rid)
        self.ids.add(rid)
        line = json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params},
                          separators=(",", ":")).encode()
        reply, size = self.raw(line)
        check(reply.get("jsonrpc") == "2.0", "%s reply has jsonrpc 2.0" % method)
        check(reply.get("id") == rid, "%s reply id %r is the request's %d" % (method, reply.get("id"), rid))
        if capped:
            check(size <= REPLY_CAP, "%s reply of %d bytes within %d" % (method, size, REPLY_CAP))
        return reply

    def ok(self, method, params, capped=True):
        reply = self.call(method, params, capped)
        if not check("result" in reply, "%s succeeds: %s" % (method, json.dumps(reply)[:400])):
            raise SystemExit(report())
        return reply["result"]

    def close(self):
        self.proc.stdin.close()
        code = self.proc.wait(timeout=60)
        err = self.proc.stderr.read().decode()
        check(code == 0, "serve exits 0 at EOF (got %d: %s)" % (code, err.strip()))


def report():
    if failures:
        print("%d expectation(s) failed" % len(failures))
        return 1
    print("robot built, inspected, undone, redone and compiled over JSON-RPC")
    return 0


DOC = "robot"


class Robot:
    def __init__(self, srv):
        self.srv = srv
        self.head = None
        self.replies = {}

    def apply(self, request_id, ops):
        params = {"document": DOC, "request_id": request_id, "expected": self.head,
                  "operations": ops}
        r = self.srv.ok("model.apply", params)
        check(r.get("replayed") is False, "%s: replayed false on first apply" % request_id)
        check(r["head"]["generation"] != self.head["generation"],
              "%s: generation advanced" % request_id)
        check(r["committed"] == r["head"], "%s: committed is the new head" % request_id)
        self.head = r["head"]
        self.replies[request_id] = (params, r)
        return r

    def page_all(self, domain, obj=None, limit=None):
        """Every item of a paged domain, following next_offset."""
        items, offset, total = [], 0, None
        for _ in range(100000):
            p = {"document": DOC, "domain": domain, "offset": offset}
            if obj:
                p["object"] = obj
            if limit:
                p["limit"] = limit
            r = self.srv.ok("model.inspect", p)
            check(r["head"] == self.head, "%s page head is the current head" % domain)
            for k in ("items", "total", "offset", "limit", "count", "omitted", "next_offset",
                      "byte_limited"):
                check(k in r, "%s/%s page has %s" % (obj, domain, k))
            check(r["offset"] == offset, "%s page offset %s" % (domain, offset))
            check(r["count"] == len(r["items"]), "%s page count matches items" % domain)
            if total is not None:
                check(r["total"] == total, "%s total steady across pages" % domain)
            total = r["total"]
            items += r["items"]
            nxt = r["next_offset"]
            if nxt is None:
                break
            check(nxt > offset, "%s next_offset %s advances past %s" % (domain, nxt, offset))
            offset = nxt
        check(len(items) == total, "%s/%s: %d items paged of total %s" % (obj, domain, len(items), total))
        return items


def translate(x, y, z):
    return [[1, 0, 0, x], [0, 1, 0, y], [0, 0, 1, z], [0, 0, 0, 1]]


def item_id(item):
    return item.get("id")


def face_by_normal(robot, obj, axis, sign):
    """The face of obj whose corners all lie at the extreme of axis."""
    verts = {item_id(v): v["position"] for v in robot.page_all("vertices", obj)}
    corners = robot.page_all("corners", obj)
    faces = {}
    for c in corners:
        faces.setdefault(c["face"], []).append(verts[c["vertex"]][axis])
    extreme = max if sign > 0 else min
    best = extreme(min(v) if sign > 0 else max(v) for v in faces.values())
    found = [f for f, v in faces.items() if all(abs(x - best) < 1e-9 for x in v)]
    check(len(found) == 1, "%s has one face at the %s%d extreme (found %d)"
          % (obj, "+" if sign > 0 else "-", axis, len(found)))
    return found[0]


def main():
    binary, out_glb = sys.argv[1], sys.argv[2]
    srv = Server(binary)
    robot = Robot(srv)

    # Envelope errors first: the server keeps serving after each.
    r, _ = srv.raw(b'{"jsonrpc":"2.0","id":')
    check(r.get("error", {}).get("code") == -32700 and r.get("id") is None, "malformed JSON is -32700")
    r, _ = srv.raw(b'[1,2]')
    check(r.get("error", {}).get("code") == -32600, "an array is -32600")
    r, _ = srv.raw(b'{"jsonrpc":"1.0","id":"a","method":"model.open"}')
    check(r.get("error", {}).get("code") == -32600 and r.get("id") == "a", "jsonrpc 1.0 is -32600")
    r, _ = srv.raw(b'{"jsonrpc":"2.0","id":"b"}')
    check(r.get("error", {}).get("code") == -32600, "a missing method is -32600")
    r, _ = srv.raw(b'{"jsonrpc":"2.0","id":"c","method":"model.open","params":[1]}')
    check(r.get("error", {}).get("code") == -32602, "array params are -32602")
    r, _ = srv.raw(b'{"jsonrpc":"2.0","id":"d","method":"model.frobnicate","params":{}}')
    check(r.get("error", {}).get("code") == -32601, "an unknown method is -32601")
    check("kind" in r.get("error", {}).get("data", {}), "an engine fault carries data.kind")

    # A line past max_transaction_bytes plus the envelope is refused as it
    # streams past, and the next request is served.
    huge = b'{"jsonrpc":"2.0","id":"huge","method":"model.open","params":{"document":"' + b"x" * (65 << 20) + b'"}}'
    r, _ = srv.raw(huge)
    check(r.get("error", {}).get("code") == -32002 and r["error"]["data"]["kind"] == "limit_exceeded",
          "an oversized line is refused with -32002 limit_exceeded")

    opened = srv.ok("model.open", {"document": DOC})
    robot.head = opened["head"]
    check(robot.head["generation"] == "0", "a new document is at generation \"0\"")
    check(len(robot.head["content"]) == 64, "content is 64 hex digits")
    refused = srv.call("model.open", {"document": DOC})
    check("error" in refused, "opening an open document again is refused")

    body = robot.apply("create-body", [{"op": "cube", "object": "body", "size": [0.7, 1.0, 0.4]}])
    check(body["results"][0]["face_count"] == 6 and body["results"][0]["vertex_count"] == 8,
          "the body cube has 6 faces and 8 vertices")

    head = robot.apply("create-head", [{"op": "cube", "object": "head", "size": [0.4, 0.35, 0.35]}])
    robot.apply("place-head", [{"op": "transform", "object": "head",
                                "vertices": head["results"][0]["vertices"],
                                "matrix": translate(0, 0.8, 0)}])
    top = face_by_normal(robot, "body", 1, +1)
    robot.apply("neck", [{"op": "extrude", "object": "body", "face": top, "offset": [0, 0.1, 0]}])
    front = face_by_normal(robot, "head", 2, +1)
    visor = robot.apply("visor", [{"op": "inset", "object": "head", "face": front, "distance": 0.05}])
    arm = robot.apply("arm", [{"op": "cylinder", "object": "arm", "radius": 0.08, "height": 0.8,
                               "segments": 12}])
    robot.apply("place-arm", [{"op": "transform", "object": "arm",
                               "vertices": arm["results"][0]["vertices"],
                               "matrix": translate(0.45, 0, 0)},
                              {"op": "mirror", "object": "arm", "axis": 0, "offset": 0}])
    robot.apply("materials", [
        {"op": "material", "material": 0, "color": [0.6, 0.62, 0.65]},
        {"op": "material", "material": 1, "color": [0.1, 0.3, 0.9]},
        {"op": "assign_material", "object": "head", "faces": [front], "material": 1},
        {"op": "texture_solid", "material": 1, "width": 16, "height": 16, "color": [30, 80, 200]},
        {"op": "paint_texture", "material": 1, "center": [0.5, 0.5], "radius": 0.25,
         "color": [255, 220, 0]},
    ])
    del visor

    # Every domain, every page, small pages to cross page boundaries.
    for domain in ("overview",):
        r = srv.ok("model.inspect", {"document": DOC, "domain": domain})
        check(r["head"] == robot.head, "document overview at the current head")
    objects = robot.page_all("objects", limit=1)
    names = sorted(o.get("name") for o in objects)
    check(names == ["arm", "body", "head"], "objects are arm, body, head (got %s)" % names)
    materials = robot.page_all("materials", limit=1)
    check(len(materials) == 2, "two materials defined")
    for domain in ("joints", "clips", "clip_keys"):
        robot.page_all(domain)
    for obj in ("body", "head", "arm"):
        srv.ok("model.inspect", {"document": DOC, "object": obj, "domain": "overview"})
        for domain in ("vertices", "faces", "corners", "edges", "weights", "solid"):
            items = robot.page_all(domain, obj, limit=7)
            ids = [item_id(i) for i in items if item_id(i) is not None]
            check(len(ids) == len(set(ids)), "%s/%s ids unique" % (obj, domain))
        robot.page_all("vertices", obj, limit=128)

    # Undo and redo: the content comes back, the generation never goes back.
    before = robot.head
    undone = srv.ok("model.history", {"document": DOC, "expected": before, "action": "undo"})
    check(undone["head"]["content"] != before["content"], "undo changes the content")
    check(int(undone["head"]["generation"]) > int(before["generation"]), "undo advances generation")
    redone = srv.ok("model.history", {"document": DOC, "expected": undone["head"], "action": "redo"})
    check(redone["head"]["content"] == before["content"], "redo restores the content hash")
    check(int(redone["head"]["generation"]) > int(undone["head"]["generation"]),
          "redo advances generation")
    robot.head = redone["head"]

    # A retried request id replays its original reply.
    params, first = robot.replies["create-body"]
    again = srv.ok("model.apply", params)
    check(again.get("replayed") is True, "a retried request id is replayed")
    check(again.get("committed") == first["committed"], "the replay keeps the original committed")
    changed = dict(params, operations=[{"op": "cube", "object": "body", "size": [1, 1, 1]}])
    reuse = srv.call("model.apply", changed)
    check("error" in reuse, "a reused request id with another payload is refused")

    # A stale head is refused, and refusals change nothing.
    stale = srv.call("model.apply", {"document": DOC, "request_id": "stale", "expected": before,
                                     "operations": [{"op": "cube", "object": "x", "size": [1, 1, 1]}]})
    err = stale.get("error", {})
    check(err.get("code") == -32001 and err.get("data", {}).get("kind") == "stale_head",
          "a stale head is refused with -32001 stale_head (got %s)" % json.dumps(err)[:300])
    bad = srv.call("model.apply", {"document": DOC, "request_id": "bad", "expected": robot.head,
                                   "operations": [{"op": "extrude", "object": "body", "face": "999999",
                                                   "offset": [0, 1, 0]}]})
    check("error" in bad and "operation 0" in bad["error"]["message"],
          "a bad face id is refused naming operation 0")
    ov = srv.ok("model.inspect", {"document": DOC, "domain": "overview"})
    check(ov["head"] == robot.head, "refusals leave the head unchanged")

    # Notifications get no reply: the next reply answers the next request.
    srv.proc.stdin.write(b'{"jsonrpc":"2.0","method":"model.inspect","params":{"document":"robot","domain":"overview"}}\n')

    compiled = srv.ok("model.compile", {"document": DOC, "expected": robot.head, "output": out_glb})
    check(compiled.get("output") == out_glb, "model.compile wrote the output file")
    with open(out_glb, "rb") as f:
        data = f.read()
    check(data[:4] == b"glTF" and len(data) == compiled.get("bytes"), "the GLB written is the one reported")
    check(compiled.get("sha256") == hashlib.sha256(data).hexdigest(), "the reply's sha256 is the file's")
    preview = srv.ok("model.compile_preview", {"document": DOC, "expected": robot.head}, capped=False)
    check(base64.b64decode(preview.get("glb", ""))[:4] == b"glTF", "model.compile_preview returns a GLB as base64")
    srv.ok("world.api", {}, capped=False)
    srv.ok("model.close", {"document": DOC, "expected": robot.head})
    srv.close()
    return report()


def mcp_checks(binary):
    """The MCP side of the same server, at the protocol level."""
    srv = subprocess.Popen([binary, "model", "serve", "--mcp"], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE)
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2024-11-05", "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "initialize",
         "params": {"protocolVersion": "1999-01-01", "capabilities": {},
                    "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "ping"},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "nope", "arguments": {}}},
        {"jsonrpc": "2.0", "id": 6, "method": "tools/call",
         "params": {"name": "model_close", "arguments": {"document": "none"}}},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
         "params": {"name": "model_open", "arguments": {"document": "m"}}},
        {"jsonrpc": "2.0", "id": 8, "method": "resources/list"},
    ]
    text = "".join(json.dumps(l) + "\n" for l in lines).encode()
    out, _ = srv.communicate(text, timeout=60)
    replies = [json.loads(l) for l in out.splitlines()]
    check([r.get("id") for r in replies] == [1, 2, 3, 4, 5, 6, 7, 8],
          "MCP: one reply per request, none for the notification")
    by = {r["id"]: r for r in replies}
    check(by[1]["result"]["protocolVersion"] == "2024-11-05", "MCP: a supported protocolVersion is echoed")
    check(by[2]["result"]["protocolVersion"] == "2025-11-25", "MCP: an unknown one gets our latest")
    check(by[1]["result"]["capabilities"] == {"tools": {}}, "MCP: capabilities are tools")
    check(by[1]["result"]["serverInfo"]["name"] == "animsmith", "MCP: serverInfo names animsmith")
    check(by[3]["result"] == {}, "MCP: ping answers {}")
    tools = by[4]["result"]["tools"]
    check(len(tools) == 12 and all(t["inputSchema"]["type"] == "object" for t in tools),
          "MCP: twelve tools, each with an object inputSchema")
    check(by[5].get("error", {}).get("code") == -32602, "MCP: an unknown tool is -32602")
    r6 = by[6].get("result", {})
    check(r6.get("isError") is True and "code" in json.loads(r6["content"][0]["text"]),
          "MCP: an engine fault is a result with isError and the fault as text")
    r7 = by[7].get("result", {})
    check(r7.get("isError") is False and r7.get("structuredContent", {}).get("document") == "m"
          and json.loads(r7["content"][0]["text"]) == r7["structuredContent"],
          "MCP: a tool result carries the text and structuredContent")
    check(by[8].get("error", {}).get("code") == -32601, "MCP: an unknown method is -32601")


if __name__ == "__main__":
    mcp_checks(sys.argv[1])
    sys.exit(main())
