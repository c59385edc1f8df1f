# expect WHAT CODE COMMAND...: runs COMMAND with its stdout in $tmp/out and
# its stderr in $tmp/err; an exit other than CODE prints a FAIL line with
# the stderr and sets fail=1. Sourced by the script tests that drive the
# CLI step by step ($tmp and $fail are the caller's).
expect() {
    local what=$1 want=$2 got
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    [[ $got == "$want" ]] || { echo "FAIL $what: exit $got, expected $want: $(cat "$tmp/err")"; fail=1; }
}
