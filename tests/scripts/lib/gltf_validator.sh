# Finds the Khronos glTF-Validator (npm `gltf-validator`) and runs it.
# Sourced by the script tests that check every glTF we write.
#
# gltf_validator_find: sets $module and returns 0, or sets
# $GLTF_VALIDATOR_MISSING (why) and returns 1. Looks at $GLTF_VALIDATOR_DIR
# (an `npm install --prefix DIR gltf-validator` directory, or the module
# itself), then node's own resolution; where npm exists (the development
# and CI machines) it installs the module once from the npm registry into a
# cache directory, so the check runs for real there. A machine without node
# (a bare Debian) gets a "skipped" answer instead.
gltf_validator_find() {
    module=
    if ! command -v node >/dev/null 2>&1; then
        GLTF_VALIDATOR_MISSING="node not found, glTF-Validator not run"
        return 1
    fi
    if [[ -z ${GLTF_VALIDATOR_DIR:-} ]] && command -v npm >/dev/null 2>&1 &&
        ! node -e 'require.resolve("gltf-validator")' >/dev/null 2>&1; then
        local cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/animsmith-test-tools
        if [[ ! -f $cache/node_modules/gltf-validator/package.json ]]; then
            # Two test scripts may get here at once (ctest -j): one installs.
            mkdir -p "$cache" &&
                (flock 9 && { [[ -f $cache/node_modules/gltf-validator/package.json ]] ||
                    timeout 300 npm install --prefix "$cache" --no-audit --no-fund --silent \
                        gltf-validator >/dev/null 2>&1; }) 9>"$cache/.install.lock" ||
                echo "note: npm install of gltf-validator into $cache failed"
        fi
        [[ -f $cache/node_modules/gltf-validator/package.json ]] && GLTF_VALIDATOR_DIR=$cache
    fi
    if [[ -n ${GLTF_VALIDATOR_DIR:-} ]]; then
        local cand
        for cand in "$GLTF_VALIDATOR_DIR/node_modules/gltf-validator" "$GLTF_VALIDATOR_DIR"; do
            [[ -f $cand/package.json ]] && grep -q '"name": *"gltf-validator"' "$cand/package.json" &&
                { module=$cand; break; }
        done
    elif node -e 'require.resolve("gltf-validator")' >/dev/null 2>&1; then
        module=gltf-validator
    fi
    if [[ -z $module ]]; then
        GLTF_VALIDATOR_MISSING="npm module gltf-validator not found (set GLTF_VALIDATOR_DIR to an 'npm install --prefix DIR gltf-validator' directory)"
        return 1
    fi
    return 0
}

# Prints one "CODE pointer" line per error (severity 0) of a file.
validator_errors() {
    node - "$module" "$1" <<'JS'
const [mod, file] = process.argv.slice(2);
const v = require(mod);
const fs = require("fs"), path = require("path");
const read = (u) => new Promise((ok, no) => {
    try { ok(new Uint8Array(fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(u))))); }
    catch (e) { no(String(e)); }
});
v.validateBytes(new Uint8Array(fs.readFileSync(file)), {uri: path.basename(file), externalResourceFunction: read})
    .then((r) => {
        for (const m of r.issues.messages)
            if (m.severity === 0) console.log(`${m.code} ${m.pointer || ""}`);
    })
    .catch((e) => { console.error(String(e)); process.exit(3); });
JS
}

# `validator_expect_clean FILE LABEL`: prints "ok" or "FAIL" for FILE under
# LABEL and returns 1 on a validator error or a validator that cannot run;
# a missing validator is a note and returns 0.
validator_expect_clean() {
    local file=$1 label=$2 errors
    if ! gltf_validator_find; then
        echo "note: $GLTF_VALIDATOR_MISSING"
        return 0
    fi
    if ! errors=$(validator_errors "$file"); then
        echo "FAIL the validator could not run on $label"
        return 1
    fi
    if [[ -n $(sed '/^$/d' <<<"$errors") ]]; then
        echo "FAIL $label has validator errors:"
        echo "$errors"
        return 1
    fi
    echo "ok   $label has no glTF-Validator error"
}
