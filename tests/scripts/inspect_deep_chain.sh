#!/usr/bin/env bash
# inspect stays linear in skeleton depth: a 100,000-node chain (generated
# here by tests/fixtures/deep/chain.sh, never committed) is listed in full,
# indentation stops growing at depth 32 and deeper bones carry a
# "[depth N]" marker, and peak memory stays far below what a listing
# quadratic in depth needs (< 400 MB, measured with /usr/bin/time when it is
# installed; this bounds memory, not time). --format json lists every bone
# with its parent and depth.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$(cd "$1" && pwd)/animsmith
src=$(cd "$2" && pwd)
n=100000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bash "$src/tests/fixtures/deep/chain.sh" $n "$tmp/chain.gltf" || { echo "generator failed"; exit 1; }

# A guard against a hang, generous enough for a sanitizer build.
run=(timeout 600)
if [[ -x /usr/bin/time ]]; then
    run+=(/usr/bin/time -f %M -o "$tmp/rss")
fi
(cd "$tmp" && "${run[@]}" "$bin" inspect chain.gltf >"$tmp/out" 2>"$tmp/err")
code=$?
[[ $code == 0 ]] || { echo "inspect exited $code: $(head -c 300 "$tmp/err")"; exit 1; }
lines=$(wc -l <"$tmp/out")
expected=$((n + 6)) # path, rig, skeleton header, n bones, materials, meshes, clips
[[ $lines == "$expected" ]] || { echo "expected $expected lines, got $lines"; fail=1; }
check_line() {
    local at=$1 want=$2 got
    got=$(sed -n "${at}p" "$tmp/out")
    [[ $got == "$want" ]] || { echo "line $at: expected '$want', got '$got'"; fail=1; }
}
indent() { printf '%*s' "$1" ''; }
check_line 1 "chain.gltf"
check_line 3 "skeleton: $n bones"
check_line 4 "  bone0"
check_line 5 "    bone1"
check_line 35 "$(indent 64)bone31"
check_line 36 "$(indent 66)[depth 32] bone32"
check_line $((n + 3)) "$(indent 66)[depth $((n - 1))] bone$((n - 1))"
check_line $((n + 6)) "clips: 0"
# Every line is bounded: none is longer than the deepest marker line.
longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$tmp/out")
[[ $longest -le 100 ]] || { echo "a line of $longest characters: indentation is not bounded"; fail=1; }
if [[ -f $tmp/rss ]]; then
    rss_kb=$(tail -n 1 "$tmp/rss")
    if [[ $rss_kb =~ ^[0-9]+$ ]] && ((rss_kb > 400 * 1024)); then
        echo "peak memory $((rss_kb / 1024)) MB for a $n-node chain (bound 400 MB)"
        fail=1
    fi
fi

(cd "$tmp" && timeout 600 "$bin" inspect chain.gltf --format json >"$tmp/json") ||
    { echo "inspect --format json failed"; fail=1; }
bones=$(grep -c '"depth": ' "$tmp/json")
[[ $bones == "$n" ]] || { echo "JSON lists $bones bones, expected $n"; fail=1; }
grep -q "\"depth\": $((n - 1))" "$tmp/json" || { echo "JSON lacks the deepest bone's depth"; fail=1; }
grep -q "\"parent\": $((n - 2))" "$tmp/json" || { echo "JSON lacks the deepest bone's parent"; fail=1; }
[[ $fail == 0 ]] && echo "a $n-node chain is inspected in full with bounded lines"
exit $fail
