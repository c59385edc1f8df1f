#!/usr/bin/env bash
# Every program in the repository answers --help with its usage on stdout
# and exit 0, and never takes a flag for a path: the CLI and its commands,
# the fixture generator, the bench programs, the scripts and the test
# scripts. The fixture generator given a flag-like argument must refuse it
# (exit 2) and create nothing.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
fail=0

# expect_help NAME COMMAND...: exit 0, something on stdout mentioning usage.
expect_help() {
    local name=$1 out code
    shift
    out=$("$@" 2>/dev/null)
    code=$?
    if [[ $code != 0 ]]; then
        echo "$name --help exited $code"
        fail=1
    elif ! grep -qi 'usage' <<<"$out"; then
        echo "$name --help printed no usage on stdout"
        fail=1
    fi
}

for prog in animsmith animsmith-blendref animsmith-fixturegen animsmith-gendocs bench_json bench_load bench_numfmt bench_grid bench_reduce bench_report bench_write gen_library; do
    if [[ -x $build/$prog ]]; then
        expect_help "$prog" "$build/$prog" --help
        expect_help "$prog -h" "$build/$prog" -h
    else
        echo "$build/$prog not built"
        fail=1
    fi
done
for s in scripts/bootstrap scripts/demo scripts/fresh-machine-test bench/run_lint_bench.sh bench/run_report_bench.sh bench/profile_lint.sh bench/fbx_load.sh tools/exactness/compare.sh \
    tests/cli/run_case.sh tests/scripts/*.sh; do
    s=${s#"$src"/}
    case $s in
    scripts/* | bench/*) expect_help "$s" "$src/$s" --help ;;
    *) expect_help "$s" bash "$src/$s" --help ;;
    esac
done

# A flag is never a path: nothing named after it appears.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for flag in --out -o --bogus; do
    (cd "$tmp" && "$build/animsmith-fixturegen" "$flag" >/dev/null 2>&1)
    code=$?
    [[ $code == 2 ]] || { echo "animsmith-fixturegen $flag exited $code, expected 2"; fail=1; }
    (cd "$tmp" && "$build/gen_library" "$flag" >/dev/null 2>&1)
    code=$?
    [[ $code == 2 ]] || { echo "gen_library $flag exited $code, expected 2"; fail=1; }
    (cd "$tmp" && bash "$src/tests/scripts/fixtures_match.sh" "$flag" >/dev/null 2>&1)
    code=$?
    [[ $code == 2 ]] || { echo "fixtures_match.sh $flag exited $code, expected 2"; fail=1; }
done
if [[ -n $(ls -A "$tmp") ]]; then
    echo "a flag became a path: $(ls -A "$tmp")"
    fail=1
fi
[[ $fail == 0 ]] && echo "every program answers --help and refuses flags as paths"
exit $fail
