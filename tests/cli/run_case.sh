#!/usr/bin/env bash
# One CLI transcript test: runs `animsmith <args>` (args from NAME.cmd, one
# shell-quoted line, run from the repository root) and compares stdout with
# NAME.out, stderr with NAME.err (empty when absent) and the exit code with
# NAME.code (0 when absent). A case whose NAME.cmd mentions
# $ANIMSMITH_CORPUS is skipped when the corpus is not beside the checkout.
set -u
. "$(dirname "$0")/../scripts/lib/script_help.sh"
script_help "$0" "BINARY CASE.cmd" "$@"
bin=$1
case_file=$2
dir=$(dirname "$case_file")
name=$(basename "$case_file" .cmd)
: "${ANIMSMITH_CORPUS:=$(cd "$(dirname "$0")/../../.." && pwd)/shared/corpus}"
export ANIMSMITH_CORPUS
args=$(cat "$case_file")
if [[ $args == *'$ANIMSMITH_CORPUS'* && ! -d $ANIMSMITH_CORPUS ]]; then
    echo "skipped: corpus not found at $ANIMSMITH_CORPUS"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
eval "set -- $args"
"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
code=$?
# Corpus paths differ between machines: compare them symbolically.
if [[ -d $ANIMSMITH_CORPUS ]]; then
    for f in out err; do
        perl -pi -e 'BEGIN { $c = shift @ARGV } s/\Q$c\E/\$ANIMSMITH_CORPUS/g' "$ANIMSMITH_CORPUS" "$tmp/$f"
    done
fi
# The build's source identity changes with every commit.
perl -pi -e 's/"revision": ("[0-9a-f]{40}"|null)/"revision": "<revision>"/; s/"dirty": (true|false|null)/"dirty": "<dirty>"/' "$tmp/out"
fail=0
expected_code=0
[[ -f $dir/$name.code ]] && expected_code=$(cat "$dir/$name.code")
if [[ $code != "$expected_code" ]]; then
    echo "exit code: expected $expected_code, got $code"
    fail=1
fi
if ! diff -u "$dir/$name.out" "$tmp/out"; then
    echo "stdout differs (expected $dir/$name.out)"
    fail=1
fi
expected_err=/dev/null
[[ -f $dir/$name.err ]] && expected_err=$dir/$name.err
if ! diff -u "$expected_err" "$tmp/err"; then
    echo "stderr differs"
    fail=1
fi
exit $fail
