#!/usr/bin/env bash
# fix writes only repaired key bytes, and what it writes is valid glTF.
#
# 1. Byte-for-byte (always runs, needs python3): for each repaired file,
#    every byte outside the rotation output accessors' element ranges is
#    the input's (GLB: the whole file; .gltf: the JSON and every external
#    buffer file), and the files have the same length.
# 2. Khronos glTF-Validator (npm `gltf-validator`): the output has no
#    error the input did not already have, and clip-dirty's non-unit
#    quaternion error is gone. Runs when node and the module are found:
#    $GLTF_VALIDATOR_DIR (an `npm install --prefix DIR gltf-validator`
#    directory, or the module directory itself), else whatever node's own
#    resolution finds (NODE_PATH, global modules). Without them the script
#    reports the byte checks and exits 77 (skipped); a fresh Debian CI image
#    has no node; where npm exists the module is installed into a cache
#    directory on first use (see below).
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
build=$1
src=$2
bin=$build/animsmith
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# GLB -> .gltf + external .bin (same JSON apart from the buffer's uri), so
# the .gltf path is exercised on the same dirty data.
to_gltf() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, struct, sys
glb, out_gltf, bin_name = sys.argv[1:4]
d = open(glb, "rb").read()
jlen = struct.unpack_from("<I", d, 12)[0]
doc = json.loads(d[20:20 + jlen])
blen = struct.unpack_from("<I", d, 20 + jlen)[0]
payload = d[28 + jlen:28 + jlen + blen]
doc["buffers"][0]["uri"] = bin_name
open(out_gltf, "w").write(json.dumps(doc))
open(out_gltf.rsplit("/", 1)[0] + "/" + bin_name, "wb").write(payload)
PY
}

# Compares IN and OUT (.glb or .gltf, external buffers beside each) and
# prints the number of differing bytes, all inside rotation values.
compare_bytes() {
    python3 - "$1" "$2" <<'PY'
import json, os, struct, sys
src, dst = sys.argv[1:3]

def load(path):
    data = open(path, "rb").read()
    if path.lower().endswith(".glb"):
        jlen = struct.unpack_from("<I", data, 12)[0]
        doc = json.loads(data[20:20 + jlen])
        return data, doc, 28 + jlen
    return data, json.loads(data), None

def masks(doc, bin_base, file_len):
    """Per buffer index: set of byte offsets (in the file holding it)
    inside rotation output elements."""
    out = {}
    for anim in doc.get("animations", []):
        for ch in anim["channels"]:
            if ch["target"].get("path") != "rotation":
                continue
            acc = doc["accessors"][anim["samplers"][ch["sampler"]]["output"]]
            if acc.get("componentType") != 5126 or acc.get("type") != "VEC4" or "bufferView" not in acc:
                continue
            view = doc["bufferViews"][acc["bufferView"]]
            b = view["buffer"]
            base = bin_base if "uri" not in doc["buffers"][b] else 0
            start = base + view.get("byteOffset", 0) + acc.get("byteOffset", 0)
            stride = view.get("byteStride", 16)
            s = out.setdefault(b, set())
            for e in range(acc["count"]):
                s.update(range(start + e * stride, start + e * stride + 16))
    return out

def diff(a, b, allowed, what):
    if len(a) != len(b):
        sys.exit(f"{what}: length {len(a)} != {len(b)}")
    n = 0
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            if i not in allowed:
                sys.exit(f"{what}: byte {i} outside the rotation values changed")
            n += 1
    return n

a, doc, base = load(src)
b, _, _ = load(dst)
m = masks(doc, base, len(a))
changed = 0
if base is not None:
    changed += diff(a, b, m.get(0, set()), dst)
else:
    changed += diff(a, b, set(), dst)  # the JSON is copied verbatim
for i, buf in enumerate(doc.get("buffers", [])):
    uri = buf.get("uri")
    if uri is None or uri.startswith("data:"):
        continue
    fa = os.path.join(os.path.dirname(src), uri)
    fb = os.path.join(os.path.dirname(dst), uri)
    changed += diff(open(fa, "rb").read(), open(fb, "rb").read(), m.get(i, set()), fb)
print(changed)
PY
}

# name input output expect_changed(yes|no)
pairs=()
check_pair() {
    local name=$1 in=$2 out=$3 want=$4 n
    if ! n=$(compare_bytes "$in" "$out"); then
        echo "FAIL $name: bytes outside the repaired values differ"
        fail=1
        return
    fi
    if [[ $want == yes && $n == 0 ]] || [[ $want == no && $n != 0 ]]; then
        echo "FAIL $name: $n byte(s) changed (expected changes: $want)"
        fail=1
        return
    fi
    echo "ok   $name: $n byte(s) changed, all inside rotation values"
    pairs+=("$name|$in|$out")
}

run_fix() {
    "$bin" fix "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    local rc=$?
    if [[ $rc != 0 ]]; then
        echo "FAIL animsmith fix $*: exit $rc"
        cat "$tmp/stderr"
        fail=1
        return 1
    fi
}

assets=$src/examples/assets
mkdir -p "$tmp/out" "$tmp/ext" "$tmp/ext-out"
for a in clip-dirty clip walk-dirty walk; do
    run_fix "$assets/$a.glb" -o "$tmp/out/$a.glb" &&
        check_pair "$a.glb" "$assets/$a.glb" "$tmp/out/$a.glb" \
            "$([[ $a == clip-dirty ]] && echo yes || echo no)"
done
to_gltf "$assets/clip-dirty.glb" "$tmp/ext/clip-dirty.gltf" clip-dirty.bin
run_fix "$tmp/ext/clip-dirty.gltf" -o "$tmp/ext-out/clip-dirty.gltf" &&
    check_pair "clip-dirty.gltf (external .bin)" "$tmp/ext/clip-dirty.gltf" \
        "$tmp/ext-out/clip-dirty.gltf" yes
mkdir -p "$tmp/inplace" "$tmp/orig"
cp "$assets/clip-dirty.glb" "$tmp/inplace/clip-dirty.glb"
cp "$assets/clip-dirty.glb" "$tmp/orig/clip-dirty.glb"
run_fix "$tmp/inplace/clip-dirty.glb" --in-place &&
    check_pair "clip-dirty.glb --in-place" "$tmp/orig/clip-dirty.glb" \
        "$tmp/inplace/clip-dirty.glb" yes

# ---- the validator ----
# shellcheck source=lib/gltf_validator.sh
. "$(dirname "$0")/lib/gltf_validator.sh"
if ! gltf_validator_find; then
    echo "skipped: $GLTF_VALIDATOR_MISSING; byte checks: $([[ $fail == 0 ]] && echo passed || echo FAILED)"
    [[ $fail == 0 ]] && exit 77 || exit 1
fi

for p in "${pairs[@]}"; do
    IFS='|' read -r name in out <<<"$p"
    if ! before=$(validator_errors "$in") || ! after=$(validator_errors "$out"); then
        echo "FAIL $name: the validator could not run"
        fail=1
        continue
    fi
    new=$(comm -13 <(sort -u <<<"$before") <(sort -u <<<"$after") | sed '/^$/d')
    if [[ -n $new ]]; then
        echo "FAIL $name: new validator errors:"
        echo "$new"
        fail=1
    elif [[ $name == clip-dirty* ]] &&
        { ! grep -q NON_NORMALIZED_QUATERNION <<<"$before" || grep -q NON_NORMALIZED_QUATERNION <<<"$after"; }; then
        echo "FAIL $name: the non-unit quaternion error should be in the input and gone from the output"
        fail=1
    else
        echo "ok   $name: validator errors $(sed '/^$/d' <<<"$before" | wc -l) -> $(sed '/^$/d' <<<"$after" | wc -l)"
    fi
done
exit $fail
