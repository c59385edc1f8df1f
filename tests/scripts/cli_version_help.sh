#!/usr/bin/env bash
# --version prints one identification line; every command has --help with
# a usage line, an Options section and at least one example.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$1/animsmith
fail=0
line=$("$bin" --version) || { echo "--version exited non-zero"; fail=1; }
if ! [[ $line =~ ^animsmith\ [0-9]+\.[0-9]+\.[0-9]+(\ \([^\)]+\))?\ \[features:\ [a-z,\ ]+\]$ ]]; then
    echo "unexpected --version line: $line"
    fail=1
fi
"$bin" --help >/dev/null || { echo "--help exited non-zero"; fail=1; }
for cmd in $("$bin" --help | awk '/^Commands:/{on=1;next} /^$/{on=0} on{print $1}'); do
    out=$("$bin" "$cmd" --help) || { echo "$cmd --help exited non-zero"; fail=1; }
    [[ $out == *"Usage: animsmith"* ]] || { echo "$cmd --help has no usage line"; fail=1; }
    [[ $out == *$'\nOptions:\n'* ]] || { echo "$cmd --help has no Options section"; fail=1; }
    [[ $out == *$'\nExamples:\n  animsmith '* ]] || { echo "$cmd --help has no example"; fail=1; }
done
exit $fail
