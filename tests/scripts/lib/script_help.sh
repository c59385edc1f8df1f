# Sourced by every test script. `script_help "$0" ARGS "$@"` answers
# -h/--help with a usage line (the script's name and ARGS) and its header
# comment (exit 0), and refuses any argument that starts with '-' (exit 2),
# so a mistyped flag never becomes a build or source directory. ctest
# passes only directories and files.
script_help() {
    local self=$1 usage=$2 arg
    shift 2
    for arg in "$@"; do
        case $arg in
        -h | --help)
            echo "usage: bash $self $usage"
            echo
            awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$self"
            exit 0
            ;;
        -*)
            echo "$(basename "$self"): unknown option '$arg' (see --help)" >&2
            exit 2
            ;;
        esac
    done
}

# `script_dirs "$@"` after script_help: build and src from the two ctest
# arguments, src and bin ($build/animsmith) made absolute so the script may
# change directory.
script_dirs() {
    build=$1
    src=$2
    bin=$build/animsmith
    [[ $bin == /* ]] || bin=$PWD/$bin
    [[ $src == /* ]] || src=$PWD/$src
}
