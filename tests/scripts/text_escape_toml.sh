#!/usr/bin/env bash
# Every string anim_text_quote_toml writes must be a TOML basic string that
# reads back, through Python's tomllib, to exactly the original text.
# Usage: text_escape_toml.sh BUILD_DIR SOURCE_DIR (exit 77 = skipped).
set -euo pipefail
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
build="$1"
bin="$build/tests/test_text_escape"
if [ ! -x "$bin" ]; then
    echo "skip: $bin not built"; exit 77
fi
if ! python3 -c 'import tomllib' 2>/dev/null; then
    echo "skip: python3 tomllib unavailable"; exit 77
fi
"$bin" --emit-toml | python3 -c '
import sys, tomllib
doc = tomllib.loads(sys.stdin.read())
n = 0
for key, value in doc.items():
    if not key.startswith("k"):
        continue
    want = bytes.fromhex(doc["h" + key[1:]]).decode("utf-8")
    if value != want:
        sys.exit("mismatch %s: %r != %r" % (key, value, want))
    n += 1
if n < 60:
    sys.exit("too few samples: %d" % n)
print("ok: %d TOML strings read back exactly" % n)
'
