#!/usr/bin/env bash
# When the spooled records cannot be copied back the way they were meant
# to, the report is still whole, or the run fails: with sendfile stopping
# part way through a record the rest is copied by reading the spool (the
# report is cmp-identical to the run without a spool); with reading the
# spool failing as well, lint --format json and measure say so on stderr
# and exit 2 instead of passing off a cut report as a run. The failures
# come from a small LD_PRELOAD shim over sendfile and pread built here;
# skipped without a C compiler or when preloading does not take.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
gen=$build/gen_library
[[ -x $gen ]] || { echo "skipped: $gen not built"; exit 77; }
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
[[ -n $cc ]] && command -v "$cc" >/dev/null || { echo "skipped: no C compiler"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir -p "$tmp/spool"

cat >"$tmp/shim.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/types.h>
#include <unistd.h>

/* SPOOL_SHIM: "partial" - sendfile sends at most 100 bytes per call and
 * then fails once per record; "unreadable" - sendfile fails at once and
 * pread fails with EIO. */
static const char *mode(void)
{
    const char *m = getenv("SPOOL_SHIM");
    return m ? m : "";
}

ssize_t sendfile(int out, int in, off_t *off, size_t n)
{
    static ssize_t (*real)(int, int, off_t *, size_t);
    static int calls;
    if (!real)
        real = (ssize_t(*)(int, int, off_t *, size_t))dlsym(RTLD_NEXT, "sendfile");
    if (!strcmp(mode(), "unreadable")) {
        errno = EINVAL;
        return -1;
    }
    if (!strcmp(mode(), "partial") && calls++ % 2 == 1) {
        errno = EIO;
        return -1;
    }
    return real(out, in, off, n < 100 ? n : 100);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    static ssize_t (*real)(int, void *, size_t, off_t);
    if (!real)
        real = (ssize_t(*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
    if (!strcmp(mode(), "unreadable")) {
        errno = EIO;
        return -1;
    }
    return real(fd, buf, n, off);
}
EOF
"$cc" -shared -fPIC -o "$tmp/shim.so" "$tmp/shim.c" -ldl 2>"$tmp/cc.err" ||
    { echo "skipped: the shim does not build: $(head -1 "$tmp/cc.err")"; exit 77; }
# A sanitizer runtime must come first unless told otherwise.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

"$gen" --files 4 --clips 3 --keys 20 "$tmp/lib" >/dev/null || { echo "FAIL: gen_library"; exit 1; }
# The unreadable case fails only if the shim took, so it also proves the
# partial case ran with the shim in place.
for cmd in "lint --format json" "measure"; do
    # shellcheck disable=SC2086 # cmd is words on purpose
    TMPDIR=$tmp/missing "$bin" $cmd --jobs 2 "$tmp/lib" >"$tmp/memory" 2>/dev/null
    want=$?
    # shellcheck disable=SC2086
    TMPDIR=$tmp/spool SPOOL_SHIM=partial LD_PRELOAD=$tmp/shim.so "$bin" $cmd --jobs 2 "$tmp/lib" \
        >"$tmp/partial" 2>"$tmp/partial.err"
    got=$?
    if [[ $got != "$want" ]] || ! cmp -s "$tmp/memory" "$tmp/partial"; then
        echo "FAIL: $cmd: sendfile stopping part way gave exit $got (want $want) and a report that differs: $(head -1 "$tmp/partial.err")"
        fail=1
    fi
    # shellcheck disable=SC2086
    TMPDIR=$tmp/spool SPOOL_SHIM=unreadable LD_PRELOAD=$tmp/shim.so "$bin" $cmd --jobs 2 "$tmp/lib" \
        >"$tmp/cut" 2>"$tmp/cut.err"
    got=$?
    if [[ $got != 2 ]] || ! grep -q "could not read the finished file records back" "$tmp/cut.err"; then
        echo "FAIL: $cmd: an unreadable spool gave exit $got and: $(head -1 "$tmp/cut.err")"
        fail=1
    fi
done
exit $fail
