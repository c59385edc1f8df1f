#!/usr/bin/env bash
# ./animsmith.toml is the contract when --config is absent; --config wins.
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
exit $fail
