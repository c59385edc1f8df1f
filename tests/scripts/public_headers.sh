#!/usr/bin/env bash
# Every header under include/animsmith/ is public and self-contained: each
# one compiles on its own (and included twice) as strict C11 with the
# project's warnings, with nothing but include/ on the path and no feature
# macros, and, when a C++ compiler is installed, as C++ too (the headers
# carry extern "C"), so an embedding program can include any of them first.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cxx=$(command -v c++ || true)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
count=0
for h in "$src"/include/animsmith/*.h; do
    name=animsmith/${h##*/}
    printf '#include "%s"\n#include "%s"\nint main(void) { return 0; }\n' "$name" "$name" >"$tmp/one.c"
    if ! "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -Wshadow -Wstrict-prototypes \
        -I"$src/include" -fsyntax-only "$tmp/one.c" 2>"$tmp/log"; then
        echo "FAIL $name does not compile alone as C11:"
        cat "$tmp/log"
        fail=1
    fi
    if [[ -n $cxx ]]; then
        cp "$tmp/one.c" "$tmp/one.cc"
        if ! "$cxx" -std=c++17 -Wall -Wextra -Werror -I"$src/include" -fsyntax-only "$tmp/one.cc" \
            2>"$tmp/log"; then
            echo "FAIL $name does not compile alone as C++:"
            cat "$tmp/log"
            fail=1
        fi
    fi
    count=$((count + 1))
done
((count > 0)) || { echo "FAIL no headers under $src/include/animsmith"; fail=1; }
((fail)) || echo "ok   $count public headers compile on their own"
exit $fail
