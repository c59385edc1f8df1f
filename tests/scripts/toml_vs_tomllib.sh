#!/usr/bin/env bash
# Differential test of the TOML reader against Python's tomllib: every
# document under tests/toml/valid must be accepted by both with the same
# values, every one under tests/toml/invalid refused by both. Then a fixed
# set of mutants of the valid documents (deterministic seed) must get the
# same accept/reject decision and values from both.
#
# One deliberate difference: TOML 1.0 requires an error for integers
# outside the signed 64-bit range, which tomllib returns as big integers;
# a document tomllib accepts only through such an integer counts as
# refused (tests/toml/invalid/int64-*.toml).
#
# Usage: toml_vs_tomllib.sh BUILD_DIR SOURCE_DIR (exit 77 = skipped).
# TOML_MUTANTS=N changes the number of mutants (default 400).
set -euo pipefail
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
build="$1"
src="$2"
bin="$build/tests/test_toml"
if [ ! -x "$bin" ]; then
    echo "skip: $bin not built"; exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "skip: python3 not found"; exit 77
fi
if ! python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "skip: python3 $(python3 -c 'import platform; print(platform.python_version())') has no tomllib (needs 3.11)"
    exit 77
fi

python3 - "$bin" "$src/tests/toml" "${TOML_MUTANTS:-400}" <<'PY'
import datetime, json, math, os, random, re, subprocess, sys, tempfile, tomllib

binary, root, mutants = sys.argv[1], sys.argv[2], int(sys.argv[3])
INT64 = (-(1 << 63), (1 << 63) - 1)
POSITIONED = re.compile(r"^line [0-9]+ column [0-9]+: ")

def tag(v):
    """tomllib's result in the dumper's tagged form, compared as values."""
    if isinstance(v, dict):
        return {k: tag(x) for k, x in v.items()}
    if isinstance(v, list):
        return [tag(x) for x in v]
    if isinstance(v, bool):
        return ("bool", "true" if v else "false")
    if isinstance(v, int):
        return ("integer", v)
    if isinstance(v, float):
        return ("float", "nan" if math.isnan(v) else repr(v))
    if isinstance(v, str):
        return ("string", v)
    if isinstance(v, datetime.datetime):
        return ("datetime" if v.tzinfo else "datetime-local", v.isoformat())
    if isinstance(v, datetime.date):
        return ("date-local", v.isoformat())
    if isinstance(v, datetime.time):
        return ("time-local", v.isoformat())
    raise TypeError(type(v))

def untag(j):
    """The dumper's JSON in the same form."""
    if isinstance(j, list):
        return [untag(x) for x in j]
    if set(j) == {"type", "value"} and isinstance(j["value"], str):
        t, s = j["type"], j["value"]
        if t == "integer":
            return (t, int(s))
        if t == "float":
            x = float(s)
            return (t, "nan" if math.isnan(x) else repr(x))
        return (t, s)
    return {k: untag(x) for k, x in j.items()}

def big_int(v):
    if isinstance(v, dict):
        return any(big_int(x) for x in v.values())
    if isinstance(v, list):
        return any(big_int(x) for x in v)
    return isinstance(v, int) and not isinstance(v, bool) and not INT64[0] <= v <= INT64[1]

def python_side(data):
    """(accepted, tagged value or reason)."""
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        return False, str(e)
    except RecursionError:
        return None, "recursion"
    if big_int(doc):
        return False, "integer outside int64 (TOML 1.0 requires an error)"
    return True, tag(doc)

def c_side(path):
    r = subprocess.run([binary, "--dump", path], capture_output=True, timeout=20)
    out = r.stdout.decode("utf-8", "replace").strip()
    if r.returncode == 0:
        return True, untag(json.loads(out))
    if r.returncode == 1:
        return False, out
    raise SystemExit("%s: dumper crashed (exit %d): %s" % (path, r.returncode, r.stderr))

def compare(path, data):
    """None when both sides agree, else a description."""
    py_ok, py_val = python_side(data)
    c_ok, c_val = c_side(path)
    if py_ok is None:
        return None  # Python itself gave up (deep nesting); nothing to compare
    if py_ok != c_ok:
        return "tomllib %s, ours %s: %s | %s" % (
            "accepts" if py_ok else "refuses", "accepts" if c_ok else "refuses",
            str(py_val)[:200], str(c_val)[:200])
    if c_ok and py_val != c_val:
        return "values differ:\n  tomllib %s\n  ours    %s" % (str(py_val)[:400], str(c_val)[:400])
    if not c_ok and not POSITIONED.match(c_val) and "limit" not in c_val:
        return "error without line/column: %s" % c_val
    return None

failures = []
counts = {}
for kind, want in (("valid", True), ("invalid", False)):
    names = sorted(n for n in os.listdir(os.path.join(root, kind)) if n.endswith(".toml"))
    agree = 0
    for name in names:
        path = os.path.join(root, kind, name)
        with open(path, "rb") as f:
            data = f.read()
        problem = compare(path, data)
        py_ok = python_side(data)[0]
        if problem is None and py_ok != want:
            problem = "both %s a document filed under %s/" % (
                "accept" if py_ok else "refuse", kind)
        if problem:
            failures.append("%s/%s: %s" % (kind, name, problem))
        else:
            agree += 1
    counts[kind] = (agree, len(names))

# Mutants: byte-level edits of the valid documents with TOML's syntax
# characters, so every rule is probed at its edges.
rng = random.Random(20240601)
alphabet = [b"[", b"]", b"{", b"}", b"=", b".", b",", b"\"", b"'", b"#", b"\n", b"\r\n",
            b"\r", b" ", b"\\", b"_", b"0", b"1", b"e", b"+", b"-", b":", b"T", b"Z",
            b"x", b"a", b"\"\"\"", b"'''", b"\t", b"\x00", b"\xc3\xa9", b"\xff"]
sources = []
for name in sorted(os.listdir(os.path.join(root, "valid"))):
    with open(os.path.join(root, "valid", name), "rb") as f:
        data = f.read()
    if data:
        sources.append(data)
mutant_agree = 0
accepted = 0
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "mutant.toml")
    for k in range(mutants):
        data = bytearray(rng.choice(sources))
        for _ in range(rng.randint(1, 3)):
            op = rng.randrange(3)
            at = rng.randrange(len(data) + 1)
            if op == 0 and data:
                del data[min(at, len(data) - 1)]
            elif op == 1:
                data[at:at] = rng.choice(alphabet)
            else:
                data[at:at + 1] = rng.choice(alphabet)
        data = bytes(data)
        with open(path, "wb") as f:
            f.write(data)
        problem = compare(path, data)
        if problem:
            failures.append("mutant %d %r: %s" % (k, data[:300], problem))
        else:
            mutant_agree += 1
            accepted += 1 if python_side(data)[0] else 0

for line in failures[:40]:
    print("FAIL " + line)
print("valid documents agreeing with tomllib: %d/%d" % counts["valid"])
print("invalid documents agreeing with tomllib: %d/%d" % counts["invalid"])
print("mutants agreeing with tomllib: %d/%d (%d of them accepted)" % (
    mutant_agree, mutants, accepted))
if counts["valid"][1] < 80 or counts["invalid"][1] < 80:
    print("FAIL: too few documents")
    sys.exit(1)
sys.exit(1 if failures else 0)
PY
