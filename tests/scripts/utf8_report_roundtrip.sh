#!/usr/bin/env bash
# A path that is not valid UTF-8 (bytes ff fe) is written into JSON reports
# with the visible \x{ff} escape, so every report is valid UTF-8 JSON, and
# diff reads such a report back against the asset it came from.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$1/animsmith
[[ $bin == /* ]] || bin=$PWD/$bin
src=$(cd "$2" && pwd)
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
name=$(printf 'bad\xff\xfename.glb')
cp "$src/examples/assets/walk.glb" "$name"
fail=0
for cmd in lint measure; do
    "$bin" "$cmd" --format json "$name" >"$cmd.json"
    code=$?
    [[ $code == 0 ]] || { echo "FAIL: $cmd exited $code"; fail=1; }
    python3 - "$cmd.json" <<'PY' || fail=1
import json, sys
raw = open(sys.argv[1], 'rb').read()
try:
    text = raw.decode('utf-8')
except UnicodeDecodeError as e:
    sys.exit(f"FAIL: {sys.argv[1]} is not valid UTF-8: {e}")
doc = json.loads(text)
path = doc["files"][0]["path"]
if path != "bad\\x{ff}\\x{fe}name.glb":
    sys.exit(f"FAIL: {sys.argv[1]} path is {path!r}")
PY
done
out=$("$bin" diff lint.json "$name" 2>&1)
code=$?
[[ $code == 0 && $out == "no significant movement"* ]] ||
    { echo "FAIL: diff of the report against its asset: exit $code: $out"; fail=1; }
[[ $fail == 0 ]] && echo "non-UTF-8 paths are escaped in JSON and read back by diff"
exit $fail
