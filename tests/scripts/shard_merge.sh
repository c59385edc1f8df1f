#!/usr/bin/env bash
# Sharded runs join back into the unsharded report, byte for byte: for
# lint and measure JSON, over the example assets and a generated library,
# every part of --shard K/N (N from 1 to more parts than files) is run,
# and `animsmith merge` of the parts, given in any order, is cmp-identical
# to the one unsharded run. Every input lands in exactly one part whatever
# the operand order. merge refuses reports of another command, another
# build, another --select, an edited summary, a reformatted report and a
# file in two parts, with exit 2, one line naming the report and an empty
# stdout.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
bin=$(cd "$1" && pwd)/animsmith
gen=$(cd "$1" && pwd)/gen_library
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$src" || exit 1

# join CMD INPUT N: all N parts of `CMD INPUT --format json`, merged in
# reverse order, against the unsharded run; 1 (after saying why) on a
# difference.
join() {
    local cmd=$1 input=$2 n=$3 k parts=()
    "$bin" "$cmd" "$input" --format json --jobs 2 >"$tmp/all.json"
    (($? <= 1)) || { echo "FAIL: $cmd $input did not run"; return 1; }
    for ((k = n; k >= 1; k--)); do
        "$bin" "$cmd" "$input" --format json --jobs 2 --shard "$k/$n" >"$tmp/part-$k.json"
        (($? <= 1)) || { echo "FAIL: $cmd $input --shard $k/$n did not run"; return 1; }
        parts+=("$tmp/part-$k.json")
    done
    if ! "$bin" merge "${parts[@]}" >"$tmp/merged.json"; then
        echo "FAIL: merge of $cmd $input in $n parts refused"
        return 1
    elif ! cmp -s "$tmp/all.json" "$tmp/merged.json"; then
        echo "FAIL: merge of $cmd $input in $n parts differs from the unsharded run"
        return 1
    fi
}

for cmd in lint measure; do
    for n in 1 2 3 7 20; do
        join "$cmd" examples/assets "$n" || fail=1
    done
done

if [[ -x $gen ]]; then
    "$gen" --files 9 --clips 2 --keys 8 "$tmp/lib" >/dev/null || { echo "FAIL: gen_library"; exit 1; }
    for cmd in lint measure; do
        for n in 2 4; do
            (cd "$tmp/lib" && join "$cmd" . "$n" 2>/dev/null) || fail=1
        done
    done
fi

# Every input in exactly one part, whatever the operand order.
files=(examples/assets/*.glb)
reversed=()
for ((i = ${#files[@]} - 1; i >= 0; i--)); do reversed+=("${files[i]}"); done
for order in forward reverse; do
    if [[ $order == forward ]]; then set -- "${files[@]}"; else set -- "${reversed[@]}"; fi
    for k in 1 2 3 4; do
        "$bin" measure --format text --shard "$k/4" "$@" | grep -E '^examples/'
    done | LC_ALL=C sort >"$tmp/$order.list"
done
printf '%s:\n' "${files[@]}" | LC_ALL=C sort >"$tmp/want.list"
diff "$tmp/forward.list" "$tmp/want.list" || { echo "FAIL: the parts do not cover every input once"; fail=1; }
cmp -s "$tmp/forward.list" "$tmp/reverse.list" || { echo "FAIL: the split depends on operand order"; fail=1; }

# refused NAME WANT REPORT...: merge exits 2, prints nothing on stdout and
# one stderr line naming the report and saying WANT.
refused() {
    local name=$1 want=$2
    shift 2
    local out err code
    out=$("$bin" merge "$@" 2>"$tmp/err")
    code=$?
    err=$(cat "$tmp/err")
    if [[ $code != 2 || -n $out || $(wc -l <"$tmp/err") != 1 || $err != *"$want"* ]]; then
        echo "FAIL: merge of $name: exit $code, stderr: $err"
        fail=1
    fi
}
a=examples/assets
"$bin" lint "$a" --format json --shard 1/2 >"$tmp/l1.json"
"$bin" lint "$a" --format json --shard 2/2 >"$tmp/l2.json"
"$bin" measure "$a" --format json --shard 2/2 >"$tmp/m2.json"
"$bin" lint "$a" --format json --shard 2/2 --select nan >"$tmp/l2-select.json"
"$bin" lint "$a" --format json --shard 1/3 >"$tmp/l1of3.json"
sed 's/"version": "[^"]*"/"version": "99.0.0"/' "$tmp/l2.json" >"$tmp/l2-version.json"
sed '0,/"note": [0-9]*/s//"note": 999/' "$tmp/l2.json" >"$tmp/l2-summary.json"
sed 's/^  //' "$tmp/l2.json" >"$tmp/l2-indent.json"
refused "lint and measure" "$tmp/m2.json: a report of measure" "$tmp/l1.json" "$tmp/m2.json"
refused "two builds" "$tmp/l2-version.json: a report of lint 99.0.0" "$tmp/l1.json" "$tmp/l2-version.json"
refused "two selections" "$tmp/l2-select.json: files[0] was linted with other checks" "$tmp/l1.json" "$tmp/l2-select.json"
refused "an edited summary" "$tmp/l2-summary.json: not a report as animsmith printed it" "$tmp/l1.json" "$tmp/l2-summary.json"
refused "a reformatted report" "$tmp/l2-indent.json: not a report as animsmith printed it" "$tmp/l1.json" "$tmp/l2-indent.json"
refused "overlapping parts" "is also in" "$tmp/l1.json" "$tmp/l1of3.json"
[[ $fail == 0 ]] && echo "every sharded run merges into the unsharded report"
exit $fail
