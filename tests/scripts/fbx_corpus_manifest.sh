#!/usr/bin/env bash
# Every FBX of ../shared/corpus (fbx/*.fbx, peer/*.fbx) against the corpus
# manifest: inspect's joints, clip names in order, key time ranges (from
# the converted GLB) inside each stack's span, units in metres; FBX 6.1
# loads; `convert` writes a GLB the Khronos glTF-Validator finds no error
# in; `measure` of the FBX and of its GLB agree to 1e-6 on every number.
# The Mixamo files also show `rig profile: mixamo (9 roles)`, `<fbx-root>`
# on top of the skeleton, the empty Take 001 dropped by convert with its
# message, and lint judging clip 'mixamo.com'. Skips without the corpus;
# without node/the validator only the validator step is skipped.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
corpus=${ANIMSMITH_CORPUS:-$src/../shared/corpus}
if [[ ! -d $corpus/fbx ]]; then
    echo "skipped: corpus not found at $corpus"
    exit 77
fi
lib=$(cd "$(dirname "$0")/lib" && pwd)
manifest=$corpus/MANIFEST.md
# shellcheck source=lib/gltf_validator.sh
. "$lib/gltf_validator.sh"
validate=1
if ! gltf_validator_find; then
    echo "note: validator step skipped: $GLTF_VALIDATOR_MISSING"
    validate=0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# No stray animsmith.toml from the working directory.
cd "$tmp" || exit 2

fail=0
count=0
bad() {
    echo "FAIL $rel: $*"
    fail=1
}
run() { # run NAME CMD...: stdout to $tmp/NAME.out, stderr to NAME.err, exit in $code
    local name=$1
    shift
    timeout 300 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    code=$?
}

for f in "$corpus"/fbx/*.fbx "$corpus"/peer/*.fbx; do
    [[ -f $f ]] || continue
    rel=${f#"$corpus"/}
    base=$(basename "$f" .fbx)
    count=$((count + 1))
    run inspect "$bin" inspect "$f" --format json
    if [[ $code -ne 0 ]]; then
        bad "inspect --format json exit $code: $(head -3 "$tmp/inspect.err")"
        continue
    fi
    cp "$tmp/inspect.out" "$tmp/$base.inspect.json"
    run convert "$bin" convert "$f" -o "$tmp/$base.glb"
    glb=
    if [[ $code -ne 0 ]]; then
        bad "convert exit $code: $(head -3 "$tmp/convert.err")"
    else
        glb=$tmp/$base.glb
        summary=$(cat "$tmp/convert.out")
        [[ $summary == "wrote "*" node(s), "*" clip(s), "* ]] || bad "convert summary: $summary"
    fi
    run measure "$bin" measure --format json "$f"
    if [[ $code -ne 0 ]]; then
        bad "measure exit $code: $(head -3 "$tmp/measure.err")"
        continue
    fi
    cp "$tmp/measure.out" "$tmp/$base.measure.json"
    python3 "$lib/fbx_manifest.py" check "$manifest" "$rel" "$tmp/$base.inspect.json" \
        "$tmp/$base.measure.json" ${glb:+"$glb"} || fail=1
    if [[ -n $glb ]]; then
        if [[ $validate -eq 1 ]]; then
            if ! errors=$(validator_errors "$glb"); then
                bad "the validator could not run on the converted GLB"
            elif [[ -n $(sed '/^$/d' <<<"$errors") ]]; then
                bad "validator errors in the converted GLB:"
                sed '/^$/d' <<<"$errors" | head -10
            else
                echo "ok   $rel: converted GLB has no validator error"
            fi
        fi
        run measure_glb "$bin" measure --format json "$glb"
        if [[ $code -ne 0 ]]; then
            bad "measure of the converted GLB exit $code: $(head -3 "$tmp/measure_glb.err")"
        elif python3 "$lib/fbx_manifest.py" same-measure "$tmp/$base.measure.json" \
            "$tmp/measure_glb.out" "$tmp/$base.inspect.json" >"$tmp/same.out"; then
            echo "ok   $rel: measure of the FBX and of its GLB agree to 1e-6"
        else
            bad "measure of the FBX and of its GLB differ:"
            cat "$tmp/same.out"
        fi
    fi
    case $base in
    Flair | Chapa-Giratoria | Samba_Dancing)
        run inspect_text "$bin" inspect "$f"
        grep -qx 'rig profile: mixamo (9 roles)' "$tmp/inspect_text.out" ||
            bad "inspect has no 'rig profile: mixamo (9 roles)'"
        top=$(awk '/^skeleton: / { getline; print; exit }' "$tmp/inspect_text.out")
        [[ $top == "  <fbx-root>"* ]] || bad "skeleton starts with '$top', not <fbx-root>"
        [[ ${summary:-} == *"; dropped 1 clip(s) with no writable tracks" ]] ||
            bad "convert summary does not report the empty take: ${summary:-}"
        # lint judges the take: its text names only clips with findings, so
        # the JSON's measured clips are what shows 'mixamo.com' was linted.
        run lint "$bin" lint --format json "$f"
        if [[ $code -gt 1 ]]; then
            bad "lint exit $code: $(head -3 "$tmp/lint.err")"
        elif python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
sys.exit("mixamo.com" not in d["files"][0]["measurements"]["clips"])' "$tmp/lint.out"; then
            echo "ok   $rel: lint judges clip 'mixamo.com'"
        else
            bad "lint did not judge clip 'mixamo.com'"
        fi
        ;;
    maya_game_sausage_6100_binary_wiggle)
        grep -q '"name": *"wiggle"' "$tmp/$base.inspect.json" || bad "FBX 6.1 take 'wiggle' not read"
        ;;
    esac
    summary=
done
echo "checked $count FBX files"
exit $fail
