#!/usr/bin/env bash
# Byte-for-byte comparison of two animsmith binaries on every output that
# carries a computed number: `lint --format json`, `lint` (text) and
# `measure --format json`, each with its stdout, stderr and exit code.
#
# Inputs: examples/assets/*.glb without a contract and with each
# examples/*.toml; every file of the glTF corpus one by one; and generated
# libraries (gen_library --preset 1x and --preset 10x, written to a
# temporary directory and linted with their own animsmith.toml).
#
# The only normalization is the tool's source revision and dirty flag in
# the JSON envelope (two builds of different trees differ there and
# nowhere else). A performance change to sampling, FK or the number
# printer must end with "0 differences".
#
# usage: tools/exactness/compare.sh OLD_ANIMSMITH NEW_ANIMSMITH [options]
#   --gen PATH      gen_library to use (default: next to NEW_ANIMSMITH)
#   --corpus DIR    glTF corpus directory (default: ../shared/corpus/gltf
#                   next to the source tree; skipped when absent)
#   --no-10x        skip the 10x library (the slowest part)
#   --keep DIR      keep every output under DIR instead of a temporary one
#   -h, --help      print this help
# Exit status: 0 when nothing differs, 1 when something does, 2 on usage.
set -u

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

src=$(cd "$(dirname "$0")/../.." && pwd)
old="" new="" gen="" corpus="$src/../shared/corpus/gltf" big=1 keep=""
while (($#)); do
    case $1 in
    -h | --help) usage; exit 0 ;;
    --gen) gen=${2:?--gen needs a path}; shift 2 ;;
    --corpus) corpus=${2:?--corpus needs a directory}; shift 2 ;;
    --no-10x) big=0; shift ;;
    --keep) keep=${2:?--keep needs a directory}; shift 2 ;;
    -*) echo "compare.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *)
        if [[ -z $old ]]; then old=$1
        elif [[ -z $new ]]; then new=$1
        else echo "compare.sh: one OLD and one NEW binary, got '$1' too" >&2; exit 2
        fi
        shift ;;
    esac
done
if [[ -z $old || -z $new ]]; then
    echo "compare.sh: OLD_ANIMSMITH and NEW_ANIMSMITH are required (see --help)" >&2
    exit 2
fi
for b in "$old" "$new"; do
    [[ -x $b ]] || { echo "compare.sh: '$b' is not an executable" >&2; exit 2; }
done
old=$(cd "$(dirname "$old")" && pwd)/$(basename "$old")
new=$(cd "$(dirname "$new")" && pwd)/$(basename "$new")
[[ -n $gen ]] || gen=$(dirname "$new")/gen_library

if [[ -n $keep ]]; then
    mkdir -p "$keep" && work=$(cd "$keep" && pwd)
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/animsmith-exactness.XXXXXX") || exit 2
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/out"

runs=0 diffs=0

# The revision and dirty members of the envelope's tool.source, first
# occurrence only (nothing else in a report is touched).
normalize() {
    sed -E -e '0,/"revision": /s/("revision": )("[^"]*"|null)/\1"*"/' \
        -e '0,/"dirty": /s/("dirty": )(true|false|null)/\1"*"/' "$1"
}

# compare NAME DIR ARGS...: runs both binaries in DIR with ARGS.
compare() {
    local name=$1 dir=$2 side bin
    shift 2
    for side in old new; do
        bin=$old
        [[ $side == new ]] && bin=$new
        (cd "$dir" && "$bin" "$@" >"$work/out/$name.$side.stdout" 2>"$work/out/$name.$side.stderr"
         echo "$?" >"$work/out/$name.$side.code")
        normalize "$work/out/$name.$side.stdout" >"$work/out/$name.$side.norm"
    done
    runs=$((runs + 1))
    local part
    for part in norm stderr code; do
        if ! cmp -s "$work/out/$name.old.$part" "$work/out/$name.new.$part"; then
            diffs=$((diffs + 1))
            echo "DIFFERS: $name ($part): animsmith $*"
            diff "$work/out/$name.old.$part" "$work/out/$name.new.$part" | head -n 8
        fi
    done
}

# The three outputs of one input set.
compare_all() {
    local name=$1 dir=$2
    shift 2
    compare "$name.lint-json" "$dir" lint --format json "$@"
    compare "$name.lint-text" "$dir" lint --color never "$@"
    compare "$name.measure-json" "$dir" measure --format json "$@"
}

# Examples: no contract (an empty directory has no animsmith.toml to
# discover), then each example contract.
empty=$work/empty
mkdir -p "$empty"
assets=("$src"/examples/assets/*.glb)
compare_all examples.none "$empty" "${assets[@]}"
for toml in "$src"/examples/*.toml; do
    compare_all "examples.$(basename "$toml" .toml)" "$empty" --config "$toml" "${assets[@]}"
done

# The corpus, file by file (a file that fails to load must fail the same way).
if [[ -d $corpus ]]; then
    for f in "$corpus"/*; do
        [[ -f $f ]] || continue
        compare_all "corpus.$(basename "$f")" "$empty" "$f"
    done
else
    echo "note: no corpus at $corpus; skipped"
fi

# Generated libraries with their own contract.
presets=(1x)
((big)) && presets+=(10x)
if [[ -x $gen ]]; then
    for p in "${presets[@]}"; do
        lib=$work/lib-$p
        "$gen" --preset "$p" "$lib" >/dev/null || { echo "compare.sh: $gen --preset $p failed" >&2; exit 2; }
        compare_all "library-$p" "$lib" .
    done
else
    echo "note: no gen_library at $gen; generated libraries skipped"
fi

echo "$runs runs compared, $diffs differences"
((diffs == 0))
