#!/usr/bin/env bash
# The man page and the shell completions the build generates from the
# option table are well-formed: bash -n accepts the bash completion and it
# completes commands, options, option values and check ids; groff renders
# the man page without warnings (skipped without groff); zsh -n and fish -n
# accept theirs when those shells are installed.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
build=$(cd "$1" && pwd)
man=$build/doc/animsmith.1
comp=$build/completions
fail=0
for f in "$man" "$comp/animsmith.bash" "$comp/_animsmith" "$comp/animsmith.fish"; do
    [[ -s $f ]] || { echo "not generated: $f"; exit 1; }
done

bash -n "$comp/animsmith.bash" || { echo "bash -n rejects the bash completion"; fail=1; }
# complete WORDS...: what the completion offers for the last word.
complete_words() {
    bash -c '
        complete() { :; }
        . "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _animsmith
        printf "%s\n" "${COMPREPLY[@]}"' _ "$comp/animsmith.bash" "$@"
}
expect() {
    local want=$1
    shift
    grep -qx -- "$want" <<<"$(complete_words "$@")" ||
        { echo "completing '$*' does not offer $want"; fail=1; }
}
expect lint animsmith li
expect checks animsmith ch
expect --deny-warnings animsmith lint --deny
expect markdown animsmith lint --format m
expect always animsmith lint --color al
expect nan,quat-flip animsmith lint --select nan,quat-f
expect quat-norm animsmith fix --repair quat-n
expect json animsmith inspect --format j

if command -v groff >/dev/null; then
    warnings=$(groff -man -Tutf8 -ww "$man" 2>&1 >/dev/null)
    [[ -z $warnings ]] || { echo "groff warns on the man page: $warnings"; fail=1; }
    text=$(groff -man -Tutf8 "$man" 2>/dev/null | col -bx 2>/dev/null || groff -man -Tascii "$man")
    for want in "animsmith - is this animation clip game-ready?" "--deny-warnings" "EXIT STATUS"; do
        grep -qF -- "$want" <<<"$text" || { echo "rendered man page lacks '$want'"; fail=1; }
    done
else
    echo "groff not installed: man page rendering not checked"
fi
if command -v zsh >/dev/null; then
    zsh -n "$comp/_animsmith" || { echo "zsh -n rejects the zsh completion"; fail=1; }
else
    echo "zsh not installed: zsh completion syntax not checked"
fi
if command -v fish >/dev/null; then
    fish -n "$comp/animsmith.fish" || { echo "fish -n rejects the fish completion"; fail=1; }
else
    echo "fish not installed: fish completion syntax not checked"
fi
[[ $fail == 0 ]] && echo "generated man page and completions are well-formed"
exit $fail
