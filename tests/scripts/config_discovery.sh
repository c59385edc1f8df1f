#!/usr/bin/env bash
# ./animsmith.toml is the contract when --config is absent; --config wins;
# inspect and fix find and refuse it exactly as lint does.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$1/animsmith
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src/examples/assets/clip-dirty.glb" "$tmp/"
cp "$src/examples/demote.toml" "$tmp/animsmith.toml"
printf '[checks.quat-flip]\nseverity = "error"\n' > "$tmp/strict.toml"
fail=0
out=$(cd "$tmp" && "$bin" lint clip-dirty.glb)
[[ $out == *"note[quat-flip]"* ]] || { echo "./animsmith.toml was not used: $out"; fail=1; }
out=$(cd "$tmp" && "$bin" lint clip-dirty.glb --config strict.toml)
[[ $out == *"error[quat-flip]"* ]] || { echo "--config did not win: $out"; fail=1; }
printf '[checks.quat-flip]\nseverity = "loud"\n' > "$tmp/animsmith.toml"
err=$(cd "$tmp" && "$bin" lint clip-dirty.glb 2>&1 >/dev/null)
code=$?
[[ $code == 2 && $err == "animsmith: bad config animsmith.toml: "* ]] || { echo "bad ./animsmith.toml: exit $code: $err"; fail=1; }
# inspect resolves the rig from the same ./animsmith.toml as lint.
cp "$src/examples/assets/walk.glb" "$tmp/"
cp "$src/tests/fixtures/edge/rig-roles.toml" "$tmp/animsmith.toml"
out=$(cd "$tmp" && "$bin" inspect walk.glb)
[[ $out == *"hips         -> pelvis (explicit)"* ]] || { echo "inspect ignored ./animsmith.toml: $out"; fail=1; }
out=$(cd "$tmp" && "$bin" inspect walk.glb --config strict.toml)
[[ $out == *"hips         -> pelvis (exact)"* ]] || { echo "inspect: --config did not win: $out"; fail=1; }
# A malformed ./animsmith.toml stops inspect and fix with lint's message;
# fix writes nothing and leaves an existing output as it was.
printf '[checks.quat-flip]\nseverity = "loud"\n' > "$tmp/animsmith.toml"
want=$(cd "$tmp" && "$bin" lint clip-dirty.glb 2>&1 >/dev/null)
err=$(cd "$tmp" && "$bin" inspect walk.glb 2>&1 >/dev/null)
code=$?
[[ $code == 2 && $err == "$want" ]] || { echo "inspect, bad ./animsmith.toml: exit $code: $err"; fail=1; }
printf 'keep me' > "$tmp/out.glb"
cp "$tmp/clip-dirty.glb" "$tmp/before.glb"
for args in "-o out.glb" "--in-place" "--dry-run"; do
    err=$(cd "$tmp" && "$bin" fix clip-dirty.glb $args 2>&1 >/dev/null)
    code=$?
    [[ $code == 2 && $err == "$want" ]] || { echo "fix $args, bad ./animsmith.toml: exit $code: $err"; fail=1; }
done
[[ $(cat "$tmp/out.glb") == "keep me" ]] || { echo "fix -o overwrote its output despite a bad config"; fail=1; }
cmp -s "$tmp/clip-dirty.glb" "$tmp/before.glb" || { echo "fix --in-place rewrote the file despite a bad config"; fail=1; }
exit $fail
