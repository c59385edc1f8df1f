#!/usr/bin/env bash
# The library is usable as a library, from an install: `cmake --install`
# of this build into a scratch prefix puts the program, every public header,
# libanimsmith.a and animsmith.pc in place; examples/embed.c then builds
# with nothing but the installed headers and `pkg-config --static animsmith`
# (libanimsmith, libcrypto, libm), and its gate answers as
# docs/embedding.md shows: exit 1 on purpose on the bundled swing clips
# (clip-dirty.glb blocks on its broken keys and the deliberately wrong
# duration pin, clip.glb on the pin alone), exit 0 on walk.glb, exit 2 on a
# file it cannot load. The man page and completions are installed where
# the build generated them.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)

command -v pkg-config >/dev/null || { echo "skipped: pkg-config is not installed"; exit 77; }
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
cc=$(cache_value CMAKE_C_COMPILER)
# A sanitized build's library calls into the sanitizer runtimes: the
# program linking it must ask for them too (nothing a release install has).
extra=()
[[ $(cache_value ANIMSMITH_SANITIZE) == ON ]] && extra=("-fsanitize=address,undefined")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
prefix=$tmp/prefix
if ! cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "FAIL cmake --install"
    exit 1
fi

for f in bin/animsmith include/animsmith/lint.h; do
    [[ -e $prefix/$f ]] || { echo "FAIL not installed: $f"; fail=1; }
done
# The generated man page and completions, wherever this build made them.
for pair in doc/animsmith.1:share/man/man1/animsmith.1 \
    completions/animsmith.bash:share/bash-completion/completions/animsmith \
    completions/_animsmith:share/zsh/site-functions/_animsmith \
    completions/animsmith.fish:share/fish/vendor_completions.d/animsmith.fish; do
    made=${pair%%:*} installed=${pair#*:}
    if [[ -e $build/$made ]] && ! cmp -s "$build/$made" "$prefix/$installed"; then
        echo "FAIL $made is not installed as $installed"
        fail=1
    fi
done
lib=$(find "$prefix" -name libanimsmith.a | head -1)
pc=$(find "$prefix" -name animsmith.pc | head -1)
[[ -n $lib ]] || { echo "FAIL not installed: libanimsmith.a"; fail=1; }
[[ -n $pc ]] || { echo "FAIL not installed: animsmith.pc"; exit 1; }
# Every public header, and nothing else, under include/animsmith/.
diff <(cd "$src/include/animsmith" && ls) <(cd "$prefix/include/animsmith" && ls) \
    >"$tmp/headers.diff" || { echo "FAIL installed headers differ:"; cat "$tmp/headers.diff"; fail=1; }

export PKG_CONFIG_PATH=${pc%/*}
pc_flags=$(pkg-config --cflags --libs --static animsmith) || { echo "FAIL pkg-config animsmith"; exit 1; }
# The prefix in the file is the install's, not the configured one.
[[ $pc_flags == *"-I$prefix/include"* ]] || { echo "FAIL pkg-config cflags: $pc_flags"; fail=1; }
# The library needs libcrypto, zlib, libpng and libm and nothing else of
# its own.
own=$(pkg-config --libs --static animsmith | tr ' ' '\n' | grep -v -e '^$' -e '^-L' |
    grep -v -x -F -f <(pkg-config --libs --static libcrypto zlib libpng | tr ' ' '\n') | sort | tr '\n' ' ')
# (libpng's own list may already carry -lm.)
[[ $own == "-lanimsmith -lm " || $own == "-lanimsmith " ]] ||
    { echo "FAIL pkg-config --static libs beyond libcrypto, zlib and libpng: $own"; fail=1; }

# shellcheck disable=SC2086 # pkg-config output is a word list
if ! "$cc" -std=c11 -Wall -Wextra -Werror -pedantic "${extra[@]}" "$src/examples/embed.c" \
    $pc_flags -o "$tmp/embed" 2>"$tmp/cc.log"; then
    cat "$tmp/cc.log"
    echo "FAIL examples/embed.c does not build against the install"
    exit 1
fi

# run_gate ASSET CODE EXPECTED: the exit code, and each output line with a
# finding's message cut off (check wording is not this test's business).
run_gate() {
    local asset=$1 want_code=$2 want=$3 got code
    got=$(cd "$src" && "$tmp/embed" "$asset" 2>"$tmp/err")
    code=$?
    got=$(sed -E 's/^(  [A-Z]+ +[a-z-]+: [^:]*): .*/\1/' <<<"$got")
    if [[ $code != "$want_code" ]]; then
        echo "FAIL embed $asset exited $code, expected $want_code"
        cat "$tmp/err"
        fail=1
    elif [[ $got != "$want" ]]; then
        echo "FAIL embed $asset printed:"
        echo "$got"
        echo "expected:"
        echo "$want"
        fail=1
    else
        echo "ok   embed $asset (exit $code)"
    fi
}

run_gate examples/assets/clip-dirty.glb 1 "gate: examples/assets/clip-dirty.glb (1 clip(s), rig profile unknown)
  BLOCK  quat-norm: clip 'swing' bone 'spine' @0.500s
  BLOCK  quat-flip: clip 'swing' bone 'spine' @0.750s
  BLOCK  duration-sanity: clip 'swing'
  GAP    bind-pose: insufficient_rotation_evidence
gate: FAIL: 3 blocking, 0 to review, 0 for information, 1 not judged"
run_gate examples/assets/clip.glb 1 "gate: examples/assets/clip.glb (1 clip(s), rig profile unknown)
  BLOCK  duration-sanity: clip 'swing'
  GAP    bind-pose: insufficient_rotation_evidence
gate: FAIL: 1 blocking, 0 to review, 0 for information, 1 not judged"
run_gate examples/assets/walk.glb 0 "gate: examples/assets/walk.glb (1 clip(s), rig profile ue-mannequin)
  GAP    bind-pose: insufficient_rotation_evidence
gate: PASS: 0 blocking, 0 to review, 0 for information, 1 not judged"
run_gate "$tmp/missing.glb" 2 ""
grep -q 'missing.glb' "$tmp/err" || { echo "FAIL embed's load error does not name the file"; fail=1; }
"$tmp/embed" --help | grep -q '^usage: embed' || { echo "FAIL embed --help"; fail=1; }
exit $fail
