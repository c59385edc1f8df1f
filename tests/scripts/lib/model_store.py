#!/usr/bin/env python3
"""The asset store over `animsmith model serve --store`: publication,
revisions, reopening by alias, races and crashes.

Used by tests/scripts/model_store.sh: usage model_store.py ANIMSMITH WORKDIR
[CRASH_ITERATIONS]. Every failed expectation is printed; the exit status is
1 when any failed.

- A skinned document publishes as a Character, a static one as a Prop; the
  reply of model.publish is a job, and model.job reports the revision with
  its asset, kind, alias head and the SHA-256 of source and GLB, which
  match the GLB model.compile gives and the bytes in the database.
- expected_alias must name the alias head (or null for a new alias); a
  stale head, a missing alias and a kind change are typed refusals; a
  stale document head is refused before anything is compiled.
- model.revisions lists the alias's revisions; model.open by alias opens
  the stored source, whose head content equals the published document's,
  and compiling it gives the same GLB bytes.
- Crashes: a server is killed with SIGKILL at a random moment of a stream
  of publications, many times over; after each kill the database is
  opened again and every acknowledged revision is present with the hashes
  its reply gave, every revision row is whole (its bytes hash to its
  recorded hashes, revisions run 1..head without gaps) and the alias
  head is the newest revision.
- Opening: three servers start at once on a store none has created; each
  opens it and it ends in WAL mode with its tables.
- Races: two servers publish to one alias from the same expected head at
  the same moment; exactly one wins each race and the other gets
  alias_conflict.
"""
import hashlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_robot import Server, check, failures  # noqa: E402

CHARACTER = [
    {"op": "skeleton", "joints": [
        {"name": "root", "parent": None, "translation": [0, 0, 0]},
        {"name": "spine", "parent": 0, "translation": [0, 0.5, 0]}]},
    {"op": "cube", "object": "body", "size": [0.4, 1.0, 0.3]},
    {"op": "auto_weights", "object": "body"},
]
PROP = [{"op": "cube", "object": "crate", "size": [1, 1, 1]}]


def kind_of(reply):
    """The fault kind of a JSON-RPC error reply."""
    return reply.get("error", {}).get("data", {}).get("kind")


def wait_job(srv, job, timeout=120):
    end = time.time() + timeout
    while time.time() < end:
        r = srv.ok("model.job", {"job": job})
        if r["state"] not in ("queued", "running"):
            return r
        time.sleep(0.01)
    check(False, "job %s finished within %d s" % (job, timeout))
    return {"state": "timeout"}


def build(srv, doc, ops, rid):
    head = srv.ok("model.open", {"document": doc})["head"]
    return srv.ok("model.apply", {"document": doc, "request_id": rid, "expected": head,
                                  "operations": ops})["head"]


def publish(srv, doc, head, alias, expected_alias):
    r = srv.ok("model.publish", {"document": doc, "expected": head, "alias": alias,
                                 "expected_alias": expected_alias})
    check(set(r) >= {"job"}, "model.publish answers with a job: %r" % r)
    return wait_job(srv, r["job"])


def compile_sha(srv, doc, head):
    r = srv.ok("model.compile", {"document": doc, "expected": head}, capped=False)
    return r["sha256"]


def db_rows(path):
    con = sqlite3.connect(path, timeout=30)
    try:
        revs = con.execute("SELECT a.name, r.asset, r.revision, r.source, r.source_sha256, r.glb, "
                           "r.glb_sha256, a.head FROM revisions r JOIN aliases a "
                           "ON a.asset = r.asset ORDER BY a.name, r.revision").fetchall()
    finally:
        con.close()
    return revs


def check_intact(path, acknowledged, what):
    """Every row whole, revisions contiguous, heads newest, acks present."""
    rows = db_rows(path)
    by_alias = {}
    ok = True
    for alias, asset, rev, src, ssha, glb, gsha, head in rows:
        by_alias.setdefault(alias, []).append(rev)
        if hashlib.sha256(src).hexdigest() != ssha or hashlib.sha256(glb).hexdigest() != gsha:
            ok = check(False, "%s: alias %s revision %d is whole" % (what, alias, rev))
        if head != max(r[2] for r in rows if r[0] == alias):
            ok = check(False, "%s: alias %s head %d is its newest revision" % (what, alias, head))
    for alias, revs in by_alias.items():
        if revs != list(range(1, len(revs) + 1)):
            ok = check(False, "%s: alias %s revisions %r run 1..n" % (what, alias, revs))
    present = {(a, str(r), s, g) for a, _, r, _, s, _, g, _ in rows}
    for ack in acknowledged:
        if ack not in present:
            ok = check(False, "%s: acknowledged revision %r is present" % (what, ack))
    return ok


def main_checks(binary, work):
    db = os.path.join(work, "assets.db")
    srv = Server(binary, ["--store", db])
    head = build(srv, "hero", CHARACTER, "hero-1")
    # A stale document head is refused before anything is compiled.
    stale = dict(head, generation="99")
    r = srv.call("model.publish", {"document": "hero", "expected": stale, "alias": "chars/hero",
                                   "expected_alias": None})
    job = r.get("result", {}).get("job")
    if job:
        j = wait_job(srv, job)
        check(j["state"] == "failed" and j["error"]["kind"] == "stale_head",
              "a stale document head fails the publication: %r" % j)
    else:
        check(kind_of(r) == "stale_head", "stale head refused: %r" % r)
    # Publishing to an alias that does not exist needs expected_alias null.
    j = publish(srv, "hero", head, "chars/hero", "1")
    check(j["state"] == "failed" and j["error"]["kind"] == "alias_conflict",
          "a missing alias with an expected head is alias_conflict: %r" % j)
    j = publish(srv, "hero", head, "chars/hero", None)
    check(j["state"] == "completed", "the first publication completes: %r" % j)
    res = j.get("result", {})
    check(res.get("kind") == "Character", "a skinned document is a Character: %r" % res)
    check(res.get("revision") == "1" and res.get("alias_head") == "1",
          "revision 1, alias head 1: %r" % res)
    check(res.get("glb_sha256") == compile_sha(srv, "hero", head),
          "the published GLB is the compiled GLB")
    # The alias exists now: null and a stale head both lose.
    j = publish(srv, "hero", head, "chars/hero", None)
    check(j["state"] == "failed" and j["error"]["kind"] == "alias_conflict",
          "expected absence of an existing alias is alias_conflict")
    j = publish(srv, "hero", head, "chars/hero", "7")
    check(j["state"] == "failed" and j["error"]["kind"] == "alias_conflict"
          and j["error"]["data"].get("alias_head") == "1",
          "a stale alias head is alias_conflict naming the head: %r" % j)
    head2 = srv.ok("model.apply", {"document": "hero", "request_id": "hero-2", "expected": head,
                                   "operations": [{"op": "cube", "object": "hat",
                                                   "size": [0.2, 0.2, 0.2]}]})["head"]
    j = publish(srv, "hero", head2, "chars/hero", "1")
    check(j["state"] == "completed" and j["result"]["revision"] == "2",
          "the second publication is revision 2: %r" % j)
    rev2 = j.get("result", {})
    # A Prop cannot take over a Character alias.
    phead = build(srv, "crate", PROP, "crate-1")
    j = publish(srv, "crate", phead, "chars/hero", "2")
    check(j["state"] == "failed" and j["error"]["kind"] == "asset_kind",
          "a Prop published to a Character alias is asset_kind: %r" % j)
    j = publish(srv, "crate", phead, "props/crate", None)
    check(j["state"] == "completed" and j["result"]["kind"] == "Prop",
          "a static document is a Prop: %r" % j)
    revs = srv.ok("model.revisions", {"alias": "chars/hero"})
    check([r["revision"] for r in revs["revisions"]] == ["1", "2"] and revs["alias_head"] == "2",
          "model.revisions lists revisions 1 and 2: %r" % revs)
    check(revs["revisions"][1] == {k: rev2[k] for k in revs["revisions"][1]},
          "the listed revision equals the publication's result")
    r = srv.call("model.revisions", {"alias": "nobody"})
    check(kind_of(r) == "unknown_alias", "an unknown alias: %r" % r)
    # Reopen the stored source by alias and compile it to the same bytes.
    o = srv.ok("model.open", {"document": "hero-again", "alias": "chars/hero"})
    check(o["head"]["content"] == head2["content"] and o["head"]["generation"] == "0",
          "the stored source opens at the published content: %r" % o)
    check(compile_sha(srv, "hero-again", o["head"]) == rev2.get("glb_sha256"),
          "the reopened source compiles to the published GLB")
    # The request ids of the published document stay consumed after reopening.
    srv.ok("model.close", {"document": "hero", "expected": head2})
    o = srv.ok("model.open", {"document": "hero", "alias": "chars/hero"})
    r = srv.call("model.apply", {"document": "hero", "request_id": "hero-1", "expected": o["head"],
                                 "operations": PROP})
    check(kind_of(r) == "request_id_reused",
          "a request id consumed before publication is refused after reopening: %r" % r)
    srv.close()
    rows = db_rows(db)
    check(len(rows) == 3, "three revisions in the database, got %d" % len(rows))
    # A server without a store refuses the store methods.
    bare = Server(binary)
    r = bare.call("model.revisions", {"alias": "chars/hero"})
    check(kind_of(r) == "no_store", "no store: %r" % r)
    bare.close()


class RawServer:
    """A server driven without waiting on each reply, so it can be killed."""

    def __init__(self, binary, db):
        self.proc = subprocess.Popen([binary, "model", "serve", "--store", db],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.n = 0

    def call(self, method, params):
        self.n += 1
        line = json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params})
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        if not out:
            raise EOFError
        return json.loads(out)


def crash_iteration(binary, db, it, acknowledged, rng):
    srv = RawServer(binary, db)
    killer = threading.Timer(rng.uniform(0.0, 0.25), lambda: srv.proc.send_signal(signal.SIGKILL))
    killer.start()
    try:
        r = srv.call("model.revisions", {"alias": "crash"})
        alias_head = r["result"]["alias_head"] if "result" in r else None
        if alias_head:
            head = srv.call("model.open", {"document": "c", "alias": "crash"})["result"]["head"]
        else:
            head = srv.call("model.open", {"document": "c"})["result"]["head"]
        for k in range(4):
            ops = [{"op": "cube", "object": "part-%d-%d" % (it, k), "size": [0.1, 0.1, 0.1]}]
            head = srv.call("model.apply", {"document": "c", "request_id": "c-%d-%d" % (it, k),
                                            "expected": head, "operations": ops})["result"]["head"]
            job = srv.call("model.publish", {"document": "c", "expected": head, "alias": "crash",
                                             "expected_alias": alias_head})["result"]["job"]
            while True:
                j = srv.call("model.job", {"job": job})["result"]
                if j["state"] not in ("queued", "running"):
                    break
            if j["state"] != "completed":
                check(False, "crash stream: publication failed: %r" % j)
                break
            res = j["result"]
            acknowledged.add(("crash", res["revision"], res["source_sha256"], res["glb_sha256"]))
            alias_head = res["alias_head"]
    except (EOFError, BrokenPipeError, KeyError, ValueError):
        pass  # killed mid-stream
    killer.cancel()
    try:
        srv.proc.kill()
    except ProcessLookupError:
        pass
    srv.proc.wait()


def crash_checks(binary, work, iterations):
    db = os.path.join(work, "crash.db")
    rng = random.Random(20261203)
    acknowledged = set()
    for it in range(iterations):
        crash_iteration(binary, db, it, acknowledged, rng)
        if not check_intact(db, acknowledged, "after kill %d" % it):
            break
    check(len(acknowledged) > 0, "some publications were acknowledged before the kills")
    print("ok   %d kills, %d acknowledged revisions intact" % (iterations, len(acknowledged)))


def open_race_checks(binary, work, rounds):
    """Three servers started at one moment on a store none has created yet:
    each opens it, and the store ends in WAL mode with its tables."""
    req = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "model.revisions",
                      "params": {"alias": "nobody"}}).encode() + b"\n"
    for i in range(rounds):
        db = os.path.join(work, "open-%d.db" % i)
        procs = [subprocess.Popen([binary, "model", "serve", "--store", db], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in range(3)]
        for p in procs:
            out, err = p.communicate(req, timeout=120)
            reply = json.loads(out) if out.strip() else {}
            if not check(p.returncode == 0 and kind_of(reply) == "unknown_alias",
                         "open race %d: a server opens the new store (exit %d: %s)"
                         % (i, p.returncode, err.decode().strip()[:300])):
                return
        con = sqlite3.connect(db, timeout=30)
        try:
            mode = con.execute("PRAGMA journal_mode").fetchone()[0]
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            con.close()
        if not check(mode == "wal" and tables >= {"documents", "assets", "revisions", "aliases",
                                                  "ledger"},
                     "open race %d: the store is in WAL mode with its tables: %s %r"
                     % (i, mode, sorted(tables))):
            return
    print("ok   %d rounds of three servers opening a new store at once" % rounds)


def race_checks(binary, work, races):
    db = os.path.join(work, "race.db")
    a, b = Server(binary, ["--store", db]), Server(binary, ["--store", db])
    heads = {}
    for name, srv in (("a", a), ("b", b)):
        heads[name] = build(srv, "r", [{"op": "cube", "object": "o" + name, "size": [1, 1, 1]}],
                            "r-" + name)
    alias_head = None
    wins = {"a": 0, "b": 0}
    for i in range(races):
        done = {}
        go = threading.Barrier(2)

        def run(name, srv):
            go.wait()
            job = srv.ok("model.publish", {"document": "r", "expected": heads[name],
                                           "alias": "race", "expected_alias": alias_head})["job"]
            done[name] = wait_job(srv, job)

        threads = [threading.Thread(target=run, args=(n, s)) for n, s in (("a", a), ("b", b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        states = sorted(d["state"] for d in done.values())
        if not check(states == ["completed", "failed"], "race %d: exactly one wins: %r" % (i, states)):
            break
        for name, d in done.items():
            if d["state"] == "completed":
                wins[name] += 1
                alias_head = d["result"]["alias_head"]
            else:
                check(d["error"]["kind"] == "alias_conflict", "race %d: the loser gets "
                      "alias_conflict: %r" % (i, d["error"]))
    a.close()
    b.close()
    check(check_intact(db, set(), "after races"), "race database intact")
    revs = db_rows(db)
    check(len(revs) == races, "one revision per race: %d of %d" % (len(revs), races))
    print("ok   %d races: a won %d, b won %d" % (races, wins["a"], wins["b"]))


def main():
    binary, work = sys.argv[1], sys.argv[2]
    iterations = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    main_checks(binary, work)
    crash_checks(binary, work, iterations)
    open_race_checks(binary, work, 40)
    race_checks(binary, work, 20)
    if failures:
        print("%d expectation(s) failed" % len(failures))
        return 1
    print("asset store: publication, revisions, reopening, crashes and races")
    return 0


if __name__ == "__main__":
    sys.exit(main())
