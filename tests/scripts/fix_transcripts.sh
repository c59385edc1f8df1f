#!/usr/bin/env bash
# fix transcripts that write files. The CLI case runner runs from the
# repository root and cannot name a temporary directory, so the -o and
# --in-place transcripts live here: each runs inside a temporary directory
# with relative output names, so stdout is compared exactly as docs/fix.md
# prints it (`-> fixed.glb`), one summary line per run. Also: refusals
# leave existing files untouched, --dry-run writes nothing, .gltf with an
# external buffer, and data-URI buffers reported as skipped.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
dirty=$src/examples/assets/clip-dirty.glb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect NAME CODE EXPECTED_STDOUT EXPECTED_STDERR -- ARGS... (run in $tmp/w)
expect() {
    local name=$1 code=$2 out=$3 err=$4
    shift 5
    (cd "$tmp/w" && "$bin" "$@") >"$tmp/stdout" 2>"$tmp/stderr"
    local rc=$?
    local ok=1
    [[ $rc == "$code" ]] || { echo "FAIL $name: exit $rc, expected $code"; ok=0; }
    diff -u <(printf '%s' "$out") "$tmp/stdout" || { echo "FAIL $name: stdout differs"; ok=0; }
    diff -u <(printf '%s' "$err") "$tmp/stderr" || { echo "FAIL $name: stderr differs"; ok=0; }
    if [[ $ok == 1 ]]; then echo "ok   $name"; else fail=1; fi
}

same() { # NAME FILE_A FILE_B
    if cmp -s "$2" "$3"; then echo "ok   $1"; else echo "FAIL $1: $2 and $3 differ"; fail=1; fi
}

# The dirty example GLB as .gltf: an external .bin, or the same bytes as a data URI.
to_gltf() { # GLB OUT.gltf BIN_NAME|data
    python3 - "$@" <<'PY'
import base64, json, os, struct, sys
glb, out, bin_name = sys.argv[1:4]
d = open(glb, "rb").read()
jlen = struct.unpack_from("<I", d, 12)[0]
doc = json.loads(d[20:20 + jlen])
blen = struct.unpack_from("<I", d, 20 + jlen)[0]
payload = d[28 + jlen:28 + jlen + blen]
if bin_name == "data":
    doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(payload).decode()
else:
    doc["buffers"][0]["uri"] = bin_name
    open(os.path.join(os.path.dirname(out), bin_name), "wb").write(payload)
open(out, "w").write(json.dumps(doc))
PY
}

mkdir -p "$tmp/w"
cp "$dirty" "$tmp/w/dirty.glb"

fixed_to() {
    printf "  fixed[quat-norm] clip 'swing' bone 'spine': 1 key(s) unit-normalized\n"
    printf "  fixed[quat-flip] clip 'swing' bone 'spine': 1 key(s) hemisphere-normalized\n"
    printf "2 key(s) fixed across 1 track(s) -> %s\n" "$1"
}
clean_dry=$'0 key(s) would be fixed across 0 track(s) -> no output written\n'

# The documented first repair: fix the dirty clip into a new file.
expect "fix -o fixed.glb (documented transcript)" 0 "$(fixed_to fixed.glb)"$'\n' "" -- \
    fix dirty.glb -o fixed.glb
expect "fixed.glb is clean (idempotent)" 0 "$clean_dry" "" -- fix fixed.glb --dry-run
same "the input is untouched" "$dirty" "$tmp/w/dirty.glb"

# --dry-run writes nothing, not even a temporary file.
ls -A "$tmp/w" >"$tmp/before"
expect "fix --dry-run exits 1 when a repair is pending" 1 \
    "$(sed 's/  fixed/  would fix/; s/ fixed across/ would be fixed across/; s/-> dirty.glb/-> no output written/' <<<"$(fixed_to dirty.glb)")"$'\n' "" -- \
    fix dirty.glb --dry-run
ls -A "$tmp/w" >"$tmp/after"
same "--dry-run wrote nothing" "$tmp/before" "$tmp/after"

# --in-place gives the same bytes as -o.
cp "$dirty" "$tmp/w/inplace.glb"
expect "fix --in-place" 0 "$(fixed_to inplace.glb)"$'\n' "" -- fix inplace.glb --in-place
same "--in-place equals -o" "$tmp/w/inplace.glb" "$tmp/w/fixed.glb"
# Nothing to repair in place: nothing is written, and the line says so.
expect "fix --in-place on a clean file writes nothing" 0 \
    $'0 key(s) fixed across 0 track(s) -> no output written\n' "" -- fix inplace.glb --in-place

# Refusals leave an existing output untouched.
printf 'old' >"$tmp/w/existing.gltf"
expect "a .glb written under a .gltf name is refused" 2 "" \
    "animsmith: existing.gltf: the output must keep the input's container (.glb)"$'\n' -- \
    fix dirty.glb -o existing.gltf
[[ $(cat "$tmp/w/existing.gltf") == old ]] && echo "ok   the existing output is untouched" ||
    { echo "FAIL the existing output changed"; fail=1; }
expect "-o naming the input is refused" 2 "" \
    "animsmith: ./dirty.glb: the output is the input file; use --in-place to rewrite it"$'\n' -- \
    fix dirty.glb -o ./dirty.glb
same "the refused input is untouched" "$dirty" "$tmp/w/dirty.glb"
expect "a missing output directory is refused" 2 "" \
    "animsmith: nowhere/fixed.glb: cannot create temporary file: No such file or directory"$'\n' -- \
    fix dirty.glb -o nowhere/fixed.glb

# .gltf with an external buffer: the JSON is copied, the .bin beside the
# output carries the patched bytes (the same bytes as fixed.glb's BIN).
mkdir -p "$tmp/w/ext" "$tmp/w/out"
to_gltf "$dirty" "$tmp/w/ext/clip.gltf" clip.bin
cp "$tmp/w/ext/clip.bin" "$tmp/orig.bin"
expect ".gltf beside its input would overwrite the input's .bin: refused" 2 "" \
    "animsmith: ext/fixed.gltf: writing buffer 0 (uri \"clip.bin\") beside the output would overwrite the input's buffer file ext/clip.bin; choose an output in another directory or use --in-place"$'\n' -- \
    fix ext/clip.gltf -o ext/fixed.gltf
[[ ! -e $tmp/w/ext/fixed.gltf ]] && echo "ok   no output after the refusal" ||
    { echo "FAIL ext/fixed.gltf was written"; fail=1; }
same "the input's .bin is untouched" "$tmp/orig.bin" "$tmp/w/ext/clip.bin"
expect "fix .gltf -o other-dir/x.gltf" 0 "$(fixed_to out/clip-fixed.gltf)"$'\n' "" -- \
    fix ext/clip.gltf -o out/clip-fixed.gltf
same "the .gltf JSON is copied byte for byte" "$tmp/w/ext/clip.gltf" "$tmp/w/out/clip-fixed.gltf"
python3 - "$tmp/w/fixed.glb" "$tmp/w/out/clip.bin" <<'PY' && echo "ok   the .bin holds fixed.glb's BIN bytes" || { echo "FAIL the .bin differs from fixed.glb's BIN chunk"; fail=1; }
import struct, sys
d = open(sys.argv[1], "rb").read()
jlen = struct.unpack_from("<I", d, 12)[0]
blen = struct.unpack_from("<I", d, 20 + jlen)[0]
sys.exit(0 if d[28 + jlen:28 + jlen + blen] == open(sys.argv[2], "rb").read() else 1)
PY
cp "$tmp/w/ext/clip.gltf" "$tmp/orig.gltf"
expect "fix .gltf --in-place" 0 "$(fixed_to ext/clip.gltf)"$'\n' "" -- fix ext/clip.gltf --in-place
same "--in-place .gltf: the JSON is left alone" "$tmp/orig.gltf" "$tmp/w/ext/clip.gltf"
same "--in-place .gltf: the .bin is repaired" "$tmp/w/out/clip.bin" "$tmp/w/ext/clip.bin"

# Data-URI buffers cannot be patched without rewriting the JSON: skipped,
# and a skipped track does not make --dry-run fail.
to_gltf "$dirty" "$tmp/w/uri.gltf" data
skipped() {
    printf "  skipped[quat-norm]: swing/spine: data-URI buffer (convert to .glb first)\n"
    printf "  skipped[quat-flip]: swing/spine: data-URI buffer (convert to .glb first)\n"
    printf "0 key(s) %s across 0 track(s) -> %s\n" "$1" "$2"
}
expect "data-URI .gltf --dry-run: skipped, exit 0" 0 \
    "$(skipped 'would be fixed' 'no output written')"$'\n' "" -- fix uri.gltf --dry-run
expect "data-URI .gltf -o: skipped, copied" 0 "$(skipped fixed out/uri.gltf)"$'\n' "" -- \
    fix uri.gltf -o out/uri.gltf
same "data-URI .gltf copied byte for byte" "$tmp/w/uri.gltf" "$tmp/w/out/uri.gltf"

# No temporary files are left behind anywhere.
if leftovers=$(find "$tmp/w" -name '*animsmith-tmp-*' | grep .); then
    echo "FAIL temporary files left: $leftovers"
    fail=1
fi
exit $fail
