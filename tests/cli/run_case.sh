#!/usr/bin/env bash
# One CLI transcript test: runs `animsmith <args>` (args from NAME.cmd, one
# shell-quoted line, run from the repository root) and compares stdout with
# NAME.out, stderr with NAME.err (empty when absent) and the exit code with
# NAME.code (0 when absent). A case whose NAME.cmd mentions
# $ANIMSMITH_CORPUS is skipped when the corpus is not beside the checkout.
# A case that writes files names them under $ANIMSMITH_CASE_TMP, a fresh
# directory removed afterwards, so nothing lands in the checkout; its path
# reads as $ANIMSMITH_CASE_TMP in the expected output.
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
mkdir "$tmp/files"
ANIMSMITH_CASE_TMP=$tmp/files
export ANIMSMITH_CASE_TMP
eval "set -- $args"
"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
code=$?
# symbolic PATH NAME: PATH in the transcript reads as $NAME.
symbolic() {
    local f
    for f in out err; do
        perl -pi -e 'BEGIN { ($c, $n) = splice @ARGV, 0, 2 } s/\Q$c\E/\$$n/g' "$1" "$2" "$tmp/$f"
    done
}
# Corpus paths differ between machines: compare them symbolically.
[[ -d $ANIMSMITH_CORPUS ]] && symbolic "$ANIMSMITH_CORPUS" ANIMSMITH_CORPUS
symbolic "$ANIMSMITH_CASE_TMP" ANIMSMITH_CASE_TMP
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
