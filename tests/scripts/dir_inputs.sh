#!/usr/bin/env bash
# lint and measure take directories: every .glb/.gltf below (extensions in
# any case), recursively, in byte-wise path order, with other files and
# dot-directories ignored; a symlink back up the tree is not followed into
# a loop; the output equals the same command over the expanded file list;
# a directory without an asset is an operator error naming it, and an
# empty directory among the others is simply passed over.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$(cd "$1" && pwd)/animsmith
src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
a=$src/examples/assets
mkdir -p "$tmp/set/b/deeper" "$tmp/set/a" "$tmp/set/.hidden" "$tmp/empty/sub" "$tmp/set/a/nothing"
cp "$a/walk.glb" "$tmp/set/b/walk.glb"
cp "$a/clip.glb" "$tmp/set/b/deeper/clip.GLB"
cp "$a/clip-dirty.glb" "$tmp/set/a/dirty.glb"
cp "$a/run-ring.glb" "$tmp/set/b.glb"
cp "$a/walk.glb" "$tmp/set/.hidden/ignored.glb"
echo "not an asset" >"$tmp/set/b/notes.txt"
ln -s .. "$tmp/set/b/deeper/up"  # a loop back to set/b
ln -s ../a "$tmp/set/b/alias"     # the same directory under a second name
echo "readme" >"$tmp/empty/sub/readme.md"

cd "$tmp" || exit 1
# Byte-wise: "set/b.glb" sorts before "set/b/..." ('.' < '/').
expected="set/a/dirty.glb
set/b.glb
set/b/deeper/clip.GLB
set/b/walk.glb"
for cmd in lint measure; do
    out=$(timeout 120 "$bin" "$cmd" set 2>"$tmp/err")
    code=$?
    [[ $code == 0 || $code == 1 ]] || { echo "$cmd set exited $code: $(cat "$tmp/err")"; fail=1; continue; }
    listed=$(timeout 120 "$bin" "$cmd" $expected 2>/dev/null)
    [[ $out == "$listed" ]] || { echo "$cmd set differs from $cmd over the expanded files"; fail=1; }
done
got=$("$bin" lint --select nan set | grep -oE '^set/[^:]+')
[[ $got == "$expected" ]] || { echo "lint set listed:"; echo "$got"; echo "expected:"; echo "$expected"; fail=1; }

out=$("$bin" lint empty 2>&1)
code=$?
[[ $code == 2 && $out == "animsmith: empty: no .glb, .gltf or .fbx file in this directory or below" ]] ||
    { echo "lint of a directory without assets: exit $code, '$out'"; fail=1; }
out=$("$bin" measure empty/ 2>&1)
[[ $out == *"empty/: no .glb, .gltf or .fbx file"* ]] || { echo "measure empty/: '$out'"; fail=1; }
[[ $fail == 0 ]] && echo "directories expand to their assets in byte-wise order"
exit $fail
