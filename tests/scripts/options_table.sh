#!/usr/bin/env bash
# The option table, the parsers and the help agree: every option a
# command's --help lists is accepted by that command (never "unknown
# option"), every option spelled in a command's parser source is listed in
# its --help, an option outside the table is refused, and the generated man
# page, the completions and docs/cli.md name every listed option.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
bin=$build/animsmith
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The options of `animsmith CMD --help`: the flags at the start of each
# line of its Options section, short and long.
help_options() {
    "$bin" "$1" --help | awk '/^Options:/{on=1;next} /^$/{on=0} on && /^  -/' |
        grep -oE '^  (-[A-Za-z], )?--[a-z-]+' | tr -d ' ' | tr ',' '\n' | sed '/^$/d'
}

commands=$("$bin" --help | awk '/^Commands:/{on=1;next} /^$/{on=0} on{print $1}')
[[ -n $commands ]] || { echo "no commands listed by animsmith --help"; exit 1; }
for cmd in $commands; do
    opts=$(help_options "$cmd")
    [[ -n $opts ]] || { echo "$cmd --help lists no options"; fail=1; }
    # 1. Every listed option is accepted. A value is given (it may be
    # refused as a value, never as an option); the input does not exist,
    # so nothing is read or written. Run in an empty directory.
    for opt in $opts; do
        [[ $opt == --help || $opt == -h ]] && continue
        out=$(cd "$tmp" && "$bin" "$cmd" "$opt" x no-such-input.glb no-such-other.glb 2>&1 >/dev/null)
        if [[ $out == *"unknown option"* ]]; then
            echo "$cmd: listed option $opt is refused: $out"
            fail=1
        fi
    done
    # 2. Every option the parser spells is listed (main.c's --config is a
    # common option every --help lists).
    file=$src/src/cli/cmd_${cmd//-/_}.c
    [[ -f $file ]] || { echo "no parser source $file for $cmd"; fail=1; continue; }
    for opt in $(grep -oE '"--?[a-zA-Z][a-z-]*"' "$file" | tr -d '"' | sort -u); do
        if ! grep -qx -- "$opt" <<<"$opts"; then
            echo "$cmd: the parser accepts $opt but $cmd --help does not list it"
            fail=1
        fi
    done
    # 3. An option outside the table is refused before the command runs.
    out=$("$bin" "$cmd" --no-such-option 2>&1 >/dev/null)
    [[ $out == *"unknown option '--no-such-option'"* ]] ||
        { echo "$cmd: --no-such-option not refused: $out"; fail=1; }
    # 4. The generated documents name every option of the command.
    for opt in $opts; do
        grep -q -- "$opt" "$build/completions/animsmith.bash" ||
            { echo "bash completion lacks $cmd $opt"; fail=1; }
        if [[ $opt == --* ]]; then fish="-l ${opt#--}"; else fish="-s ${opt#-}"; fi
        grep -q -- "$fish" "$build/completions/animsmith.fish" ||
            { echo "fish completion lacks $cmd $opt"; fail=1; }
        grep -q -- "$opt" "$build/completions/_animsmith" ||
            { echo "zsh completion lacks $cmd $opt"; fail=1; }
        grep -q -- "${opt//-/\\\\-}" "$build/doc/animsmith.1" ||
            { echo "man page lacks $cmd $opt"; fail=1; }
        grep -qF -- "\`$opt" "$src/docs/cli.md" || { echo "docs/cli.md lacks $cmd $opt"; fail=1; }
    done
done
[[ $fail == 0 ]] && echo "every listed option is accepted and every accepted option is listed"
exit $fail
