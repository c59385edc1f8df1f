#!/usr/bin/env bash
# fix never corrupts or exposes a file: large components normalize (no
# (0,0,0,0) keys), bytes shared with another accessor are skipped, a write
# onto one of the input's own files is refused under any spelling, a
# replaced file keeps its mode, a read-only file is not replaced, and an
# interrupted write leaves no temporary behind (stale ones of dead writers
# are removed by the next write). Fixtures: tests/fixtures/fix/make_fixture.py.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }
w=$tmp/w
mkdir -p "$w"
chmod 755 "$tmp"
python3 "$src/tests/fixtures/fix/make_fixture.py" "$w" 200 || { echo "cannot build fixtures"; exit 1; }
cd "$w" || exit 1

# rotation key K of clip 0 track 0 of FILE as "x y z w"
key() {
    python3 - "$1" "$2" <<'PY'
import json, struct, sys
d = open(sys.argv[1], "rb").read()
jl = struct.unpack_from("<I", d, 12)[0]
doc = json.loads(d[20:20 + jl])
b = d[28 + jl:]
acc = doc["accessors"][doc["animations"][0]["samplers"][0]["output"]]
v = doc["bufferViews"][acc["bufferView"]]
o = v.get("byteOffset", 0) + acc.get("byteOffset", 0) + 16 * int(sys.argv[2])
print(" ".join("%g" % f for f in struct.unpack_from("<4f", b, o)))
PY
}

# 1. A component of 2e19 overflows a binary32 sum of squares.
out=$("$bin" fix huge.glb -o huge-fixed.glb)
[[ $? == 0 ]] && ok "huge.glb fixed" || bad "huge.glb: exit code"
[[ $(key huge-fixed.glb 1) == "1 0 0 0" ]] && ok "a 2e19 component normalizes to (1,0,0,0)" ||
    bad "a 2e19 component became $(key huge-fixed.glb 1)"
[[ $(key huge-fixed.glb 2) == "0 0 0 0" ]] && ok "a zero key is left alone" || bad "zero key changed"
grep -q "skipped\[quat-norm\]: swing/spine: non-finite rotation key" <<<"$out" &&
    ok "the non-finite key is reported as skipped" || bad "no skip line: $out"

# 5. Bytes shared with another accessor are not changed.
out=$("$bin" fix shared.glb -o shared-fixed.glb)
grep -q "skipped\[quat-norm\]: swing/spine: output accessor 1 shares bytes with accessor 3 (clip 'slide' bone 'hips' translation values)" <<<"$out" &&
    ok "shared bytes: skipped with the other accessor named" || bad "shared bytes: $out"
cmp -s shared.glb shared-fixed.glb && ok "clip 'slide' is unchanged" || bad "shared.glb bytes changed"

# 12. One summary line, and no '-> FILE' when nothing was written.
[[ $(grep -c 'across' <<<"$out") == 1 ]] && ok "one summary line" || bad "summary lines: $out"

# 2. A write onto one of the input's own files.
cp self.gltf self-orig.gltf
out=$("$bin" fix self.gltf --in-place 2>&1)
rc=$?
[[ $rc == 2 && $out == 'animsmith: self.gltf: the output is the input'"'"'s buffer 0 file ./self.gltf (uri "self.gltf"); writing it would change the input' ]] &&
    ok "--in-place on a .gltf whose buffer is itself: refused" || bad "self.gltf: exit $rc: $out"
cmp -s self.gltf self-orig.gltf && ok "self.gltf untouched" || bad "self.gltf was changed"
cp "$src/examples/assets/clip-dirty.glb" dirty.glb
cp dirty.glb dirty-orig.glb
mkdir -p sub
ln -s dirty.glb sym.glb
ln dirty.glb hard.glb
for spelling in ./dirty.glb sub/../dirty.glb "$w/dirty.glb" sym.glb hard.glb; do
    "$bin" fix dirty.glb -o "$spelling" >/dev/null 2>&1
    rc=$?
    [[ $rc == 2 ]] && ok "-o $spelling (the input) refused" || bad "-o $spelling: exit $rc"
done
cmp -s dirty.glb dirty-orig.glb && ok "dirty.glb untouched" || bad "dirty.glb changed"
rm -f sym.glb hard.glb

# 3. Modes: a replaced file keeps its mode; a new one gets 0666 & ~umask.
cp dirty.glb private.glb
chmod 600 private.glb
"$bin" fix private.glb --in-place >/dev/null
[[ $(stat -c %a private.glb) == 600 ]] && ok "--in-place keeps mode 0600" ||
    bad "--in-place changed mode 0600 to $(stat -c %a private.glb)"
printf 'old' >prev.glb
chmod 640 prev.glb
"$bin" fix dirty.glb -o prev.glb >/dev/null
[[ $(stat -c %a prev.glb) == 640 ]] && ok "-o over an existing file keeps its mode" ||
    bad "-o changed mode 0640 to $(stat -c %a prev.glb)"
(umask 027 && "$bin" fix dirty.glb -o new.glb >/dev/null)
[[ $(stat -c %a new.glb) == 640 ]] && ok "a new file gets 0666 & ~umask" ||
    bad "new file mode $(stat -c %a new.glb)"

# 4. A stale temporary of a dead writer is removed; a live one is kept.
dead=$(sh -c 'echo $$')
printf 'junk' >".x.glb.animsmith-tmp-$dead-0"
printf 'live' >".x.glb.animsmith-tmp-$$-0"
"$bin" fix dirty.glb -o x.glb >/dev/null
[[ ! -e .x.glb.animsmith-tmp-$dead-0 ]] && ok "a dead writer's temporary is removed" ||
    bad "the stale temporary of pid $dead is still there"
[[ -e .x.glb.animsmith-tmp-$$-0 ]] && ok "a live writer's temporary is kept" ||
    bad "the temporary of the live pid $$ was removed"
rm -f ".x.glb.animsmith-tmp-$$-0"

# 4. A real signal mid-write: wait for the temporary, then SIGTERM / SIGINT.
# (Older builds named temporaries OUT.tmp-PID-N: watched for as well.)
rm -f .*animsmith-tmp-*
for sig in TERM INT HUP; do
    rm -f big-out.glb
    python3 - "$bin" "$sig" <<'PY'
import os, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "fix", "big.glb", "-o", "big-out.glb"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
seen = False
deadline = time.time() + 60
while p.poll() is None and time.time() < deadline:
    if any(".animsmith-tmp-" in n or n.startswith("big-out.glb.tmp-") for n in os.listdir(".")):
        p.send_signal(getattr(signal, "SIG" + sys.argv[2]))
        seen = True
        break
    time.sleep(0.0005)
p.wait()
sys.exit(0 if seen and p.returncode == -getattr(signal, "SIG" + sys.argv[2]) else 3)
PY
    rc=$?
    if [[ $rc == 3 ]]; then
        echo "note SIG$sig: the write finished before the signal (not checked)"
    elif leftovers=$(ls -A | grep -e animsmith-tmp -e 'big-out.glb.tmp-'); then
        bad "SIG$sig left $leftovers"
    else
        ok "SIG$sig mid-write leaves no temporary"
    fi
done

# 3. A file the user cannot write is not replaced (needs a non-root user).
if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
    as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
    mkdir ro && chmod 777 ro && cp dirty.glb ro/in.glb && chmod 644 ro/in.glb
    printf 'old' >ro/readonly.glb
    chmod 444 ro/readonly.glb
    if as_nobody true 2>/dev/null; then
        out=$(cd ro && as_nobody "$bin" fix in.glb -o readonly.glb 2>&1)
        rc=$?
        [[ $rc == 2 && $(head -c 3 ro/readonly.glb | tr -d '\0') == old ]] &&
            ok "a read-only file is not replaced" || bad "read-only target replaced (exit $rc)"
    else
        echo "note setpriv cannot switch users here: read-only refusal not checked"
    fi
else
    echo "note not root or no setpriv: read-only refusal not checked"
fi

if leftovers=$(find "$w" -name '*animsmith-tmp-*' -o -name '*.glb.tmp-*' | grep .); then
    bad "temporary files left: $leftovers"
fi
exit $fail
