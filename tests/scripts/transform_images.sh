#!/usr/bin/env bash
# Images through the writer: a .gltf whose texture is a file beside it,
# transformed into another directory as .gltf, carries the file along
# (byte-equal); as .glb, embeds it (byte-equal payload). A different file
# already at the image's place is refused before anything is written, and
# an image URI leaving the asset's directory is refused, as is an output
# named like an image it would carry. The source .gltf is
# made from the corpus's CesiumMan (skipped without the corpus).
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
corpus=${ANIMSMITH_CORPUS:-$src/../shared/corpus}/gltf
if [[ ! -f $corpus/CesiumMan.glb ]]; then
    echo "skipped: corpus not found at $corpus"
    exit 77
fi
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/in" "$tmp/out"
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }

"$bin" transform "$corpus/CesiumMan.glb" -o "$tmp/in/embedded.gltf" >/dev/null || exit 1
# The embedded image becomes a file beside the .gltf, named by URI.
python3 - "$tmp/in" <<'PY' || exit 1
import base64, json, sys
d = sys.argv[1]
doc = json.load(open(f"{d}/embedded.gltf"))
buf = base64.b64decode(doc["buffers"][0]["uri"].split(",", 1)[1])
img = doc["images"][0]
view = doc["bufferViews"][img.pop("bufferView")]
data = buf[view.get("byteOffset", 0):view.get("byteOffset", 0) + view["byteLength"]]
open(f"{d}/tex.jpg", "wb").write(data)
img.pop("mimeType", None)
img["uri"] = "tex.jpg"
json.dump(doc, open(f"{d}/man.gltf", "w"))
doc["images"][0]["uri"] = "../tex.jpg"
json.dump(doc, open(f"{d}/escape.gltf", "w"))
# Two images, the second in a subfolder.
import os
os.makedirs(f"{d}/maps", exist_ok=True)
open(f"{d}/maps/b.jpg", "wb").write(data)
doc["images"][0]["uri"] = "tex.jpg"
doc["images"].append({"uri": "maps/b.jpg"})
doc["textures"].append({"source": 1})
json.dump(doc, open(f"{d}/two.gltf", "w"))
PY

"$bin" transform "$tmp/in/man.gltf" -o "$tmp/out/man.gltf" >/dev/null
check "image file written beside the .gltf output" 'cmp -s "$tmp/in/tex.jpg" "$tmp/out/tex.jpg"'
check "the output lints like the input" \
    'diff <("$bin" lint "$tmp/in/man.gltf" | sed 1d) <("$bin" lint "$tmp/out/man.gltf" | sed 1d) >/dev/null'
"$bin" transform "$tmp/in/man.gltf" -o "$tmp/in/again.gltf" >/dev/null
check "same directory: the image stays as it is" 'cmp -s "$tmp/in/tex.jpg" "$tmp/out/tex.jpg"'

"$bin" transform "$tmp/in/man.gltf" -o "$tmp/out/man.glb" >/dev/null
python3 - "$tmp/out/man.glb" "$tmp/in/tex.jpg" <<'PY'
import json, struct, sys
b = open(sys.argv[1], "rb").read()
n = struct.unpack("<I", b[12:16])[0]
doc = json.loads(b[20:20 + n])
bin_ = b[20 + n + 8:]
view = doc["bufferViews"][doc["images"][0]["bufferView"]]
data = bin_[view["byteOffset"]:view["byteOffset"] + view["byteLength"]]
sys.exit(0 if data == open(sys.argv[2], "rb").read() and doc["images"][0]["mimeType"] == "image/jpeg" else 1)
PY
check "GLB output embeds the image file" '[[ $? == 0 ]]'

mkdir -p "$tmp/busy"
printf 'not a texture' >"$tmp/busy/tex.jpg"
"$bin" transform "$tmp/in/man.gltf" -o "$tmp/busy/man.gltf" >/dev/null 2>"$tmp/err"
code=$?
check "a different file at the image's place is refused" \
    '[[ $code == 2 && ! -e $tmp/busy/man.gltf && $(cat "$tmp/busy/tex.jpg") == "not a texture" ]]'
grep -q "refusing to replace" "$tmp/err" || { echo "FAIL refusal message: $(cat "$tmp/err")"; fail=1; }

mkdir -p "$tmp/named"
"$bin" transform "$tmp/in/man.gltf" -o "$tmp/named/tex.jpg" >/dev/null 2>"$tmp/err"
code=$?
check "an output named like an image it carries is refused" \
    '[[ $code == 2 && ! -e $tmp/named/tex.jpg ]] && grep -q "is the output itself" "$tmp/err"'

mkdir -p "$tmp/sub"
"$bin" transform "$tmp/in/two.gltf" -o "$tmp/sub/two.gltf" >/dev/null
check "an image in a subfolder gets its folder beside the output" \
    'cmp -s "$tmp/in/maps/b.jpg" "$tmp/sub/maps/b.jpg" && cmp -s "$tmp/in/tex.jpg" "$tmp/sub/tex.jpg"'
mkdir -p "$tmp/blocked"
printf 'x' >"$tmp/blocked/maps"
"$bin" transform "$tmp/in/two.gltf" -o "$tmp/blocked/two.gltf" >/dev/null 2>"$tmp/err"
code=$?
check "a write that fails part way leaves no file it created" \
    '[[ $code == 2 && ! -e $tmp/blocked/tex.jpg && ! -e $tmp/blocked/two.gltf && $(cat "$tmp/blocked/maps") == x ]]'

"$bin" transform "$tmp/in/escape.gltf" -o "$tmp/out/escape.glb" >/dev/null 2>"$tmp/err"
code=$?
check "an image URI leaving the asset's directory is refused" \
    '[[ $code == 2 && ! -e $tmp/out/escape.glb ]] && grep -q "leaves the asset" "$tmp/err"'
exit $fail
