#!/usr/bin/env bash
# The HTML report in a real browser: headless Chromium driven by the npm
# module playwright-core (tests/browser/*.test.mjs), on reports generated
# here from the example assets and, when the corpus is beside the
# checkout, from every Mixamo and Quaternius character in it.
#
# Per page: no console or page error and no network request; the viewer's
# test hook becomes ready; the canvas draws; every finding row scrubs the
# frame, its labels and the chart playheads to the judged frame (or, for a
# refusal, shows a notice and changes nothing); every URL-fragment option
# behaves as documented. ring.html's blend pane agrees with the C reference
# animsmith-blendref within 1e-5 + 1e-5 * |x| and is the source pose at
# weights 0 and 1. The evidence-only page carries no motion data and shows
# its notice; the comparison's panes, overlay and per-side links work. A
# --lod page lists its mesh-quality rows and draws its worst samples on the
# mesh, following the pose.
# Screenshots of every case go to BUILD_DIR/report-screenshots/, the pages
# to BUILD_DIR/report-browser/.
#
# Needs /usr/bin/chromium (Debian package chromium, scripts/bootstrap
# installs it; or $ANIMSMITH_CHROMIUM), node, and playwright-core (found
# or installed with npm, see tests/scripts/lib/browser.sh); exits 77
# (skipped) saying what is missing without them.
set -u
. "$(dirname "$0")/lib/script_help.sh"
. "$(dirname "$0")/lib/browser.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
[[ $build == /* ]] || build=$PWD/$build
if ! browser_find; then
    echo "skipped: $BROWSER_MISSING"
    exit 77
fi
out=$build/report-browser
shots=$build/report-screenshots
rm -rf "$out" "$shots"
mkdir -p "$out" "$shots"
fail=0
cases=()

# report NAME KINDS ARGS...: generates OUT/NAME.html from the source dir.
report() {
    local name=$1 kinds=$2 err code
    shift 2
    err=$(cd "$src" && timeout 300 "$bin" "$@" -o "$out/$name.html" 2>&1 >/dev/null)
    code=$?
    if [[ $code != 0 || ! -s $out/$name.html ]]; then
        echo "FAIL $name: animsmith $* exited $code"
        printf '%s\n' "$err" | head -5
        fail=1
        return
    fi
    cases+=("$name.html $kinds")
}

if ! "$bin" report --help >/dev/null 2>&1; then
    echo "FAIL: $bin has no report command"
    exit 1
fi
report walk-dirty single --config examples/walk.animsmith.toml report examples/assets/walk-dirty.glb
report evidence evidence --config examples/walk.animsmith.toml report examples/assets/walk-dirty.glb \
    --evidence-only
report comparison comparison --config examples/report-comparison.animsmith.toml report \
    examples/assets/report-comparison-before.glb \
    --compare-after examples/assets/report-comparison-after.glb \
    --before-clip acceptance-matrix --after-clip acceptance-matrix
report ring single,blend --config examples/run-ring.animsmith.toml report examples/assets/run-ring.glb
# A skinned sphere and its plain half: the --lod page, and its evidence-only twin.
# shellcheck source=lib/lod_fixture.sh
. "$src/tests/scripts/lib/lod_fixture.sh"
mkdir -p "$out/lod-fixture"
if lod_fixture "$out/lod-fixture"; then
    report lod single,meshq report "$out/lod-fixture/ball.glb" --lod "$out/lod-fixture/half.glb"
    report lod-evidence evidence,meshq report "$out/lod-fixture/ball.glb" \
        --lod "$out/lod-fixture/half.glb" --evidence-only
else
    fail=1
fi

# The corpus's Mixamo and Quaternius glTF characters, by the licence
# column of its manifest.
corpus=${ANIMSMITH_CORPUS:-$src/../shared/corpus}
if [[ -f $corpus/MANIFEST.md ]]; then
    n=0
    while IFS= read -r rel; do
        [[ -f $corpus/$rel ]] || continue
        name=corpus-$(basename "${rel%.*}")
        report "$name" corpus report "$corpus/$rel"
        n=$((n + 1))
    done < <(grep -E '^\| `gltf/[^`]+\.(glb|gltf)`' "$corpus/MANIFEST.md" |
        grep -E '\((Mixamo|Quaternius)\)' | sed -E 's/^\| `([^`]+)`.*/\1/')
    echo "corpus: $n Mixamo/Quaternius characters"
else
    echo "note: corpus not found at $corpus, Mixamo/Quaternius pages not tested"
fi

{
    echo "["
    sep=
    for c in "${cases[@]}"; do
        file=${c%% *}
        kinds=${c#* }
        printf '%s{"name": "%s", "file": "%s", "kinds": ["%s"]}\n' "$sep" "${file%.html}" "$file" \
            "${kinds//,/\", \"}"
        sep=,
    done
    echo "]"
} >"$out/cases.json"

export ANIMSMITH_PLAYWRIGHT=$BROWSER_PLAYWRIGHT ANIMSMITH_CHROMIUM=$BROWSER_CHROMIUM
export ANIMSMITH_REPORT_DIR=$out ANIMSMITH_SCREENSHOTS=$shots
export ANIMSMITH_BLENDREF=$build/animsmith-blendref
for t in "$src"/tests/browser/*.test.mjs; do
    echo "== $(basename "$t")"
    timeout 900 node --test-reporter=spec "$t" || { echo "FAIL $(basename "$t")"; fail=1; }
done
echo "screenshots: $shots"
exit $fail
