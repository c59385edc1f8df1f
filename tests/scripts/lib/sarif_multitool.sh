# Finds Microsoft's SARIF Multitool (npm `@microsoft/sarif-multitool`, a
# self-contained .NET program in a per-platform package) and runs its
# `validate` verb. Sourced by tests/scripts/lint_sarif_validate.sh.
#
# sarif_multitool_find: sets $SARIF_MULTITOOL (the executable) and returns
# 0, or sets $SARIF_MULTITOOL_MISSING (why) and returns 1. Looks at
# $SARIF_MULTITOOL_DIR (an `npm install --prefix DIR @microsoft/sarif-multitool`
# directory), then node's own resolution; where npm exists (the development
# and CI machines) it installs the pinned version once from the npm
# registry into the cache directory the glTF-Validator and browser tests
# use, under the same lock. A machine without node gets a "skipped" answer.

# One version for every machine: the validator's rule set changes between
# releases, and the test must judge the same rules everywhere.
SARIF_MULTITOOL_VERSION=5.7.0

# sarif_multitool_pinned DIR: whether DIR holds that version, wrapper and
# platform package both.
sarif_multitool_pinned() {
    local platform
    platform=$(node -p process.platform 2>/dev/null) || return 1
    grep -q "\"version\": *\"$SARIF_MULTITOOL_VERSION\"" \
        "$1/node_modules/@microsoft/sarif-multitool/package.json" 2>/dev/null &&
        grep -q "\"version\": *\"$SARIF_MULTITOOL_VERSION\"" \
            "$1/node_modules/@microsoft/sarif-multitool-$platform/package.json" 2>/dev/null
}

sarif_multitool_find() {
    SARIF_MULTITOOL=
    SARIF_MULTITOOL_MISSING=
    if ! command -v node >/dev/null 2>&1; then
        SARIF_MULTITOOL_MISSING="node not found, SARIF Multitool not run"
        return 1
    fi
    local platform module=
    platform=$(node -p process.platform)
    if [[ -z ${SARIF_MULTITOOL_DIR:-} ]] &&
        ! node -e 'require.resolve("@microsoft/sarif-multitool")' >/dev/null 2>&1; then
        local cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/animsmith-test-tools
        if ! sarif_multitool_pinned "$cache"; then
            if command -v npm >/dev/null 2>&1; then
                # Several test scripts may get here at once (ctest -j): one
                # installs, under the lock the other npm tools use too. The
                # platform package is named as well, so it is the pinned one.
                mkdir -p "$cache" &&
                    (flock 9 && { sarif_multitool_pinned "$cache" ||
                        timeout 600 npm install --prefix "$cache" --no-audit --no-fund --silent \
                            "@microsoft/sarif-multitool@$SARIF_MULTITOOL_VERSION" \
                            "@microsoft/sarif-multitool-$platform@$SARIF_MULTITOOL_VERSION" \
                            >/dev/null 2>&1; }) 9>"$cache/.install.lock" ||
                    echo "note: npm install of @microsoft/sarif-multitool into $cache failed"
            fi
        fi
        sarif_multitool_pinned "$cache" && SARIF_MULTITOOL_DIR=$cache
    fi
    if [[ -n ${SARIF_MULTITOOL_DIR:-} ]]; then
        [[ -f $SARIF_MULTITOOL_DIR/node_modules/@microsoft/sarif-multitool/package.json ]] &&
            module=$SARIF_MULTITOOL_DIR/node_modules/@microsoft/sarif-multitool
    elif node -e 'require.resolve("@microsoft/sarif-multitool")' >/dev/null 2>&1; then
        module=@microsoft/sarif-multitool
    fi
    if [[ -z $module ]]; then
        SARIF_MULTITOOL_MISSING="npm module @microsoft/sarif-multitool not found (set SARIF_MULTITOOL_DIR to an 'npm install --prefix DIR @microsoft/sarif-multitool' directory)"
        return 1
    fi
    # The wrapper's export is the platform executable's path.
    SARIF_MULTITOOL=$(node -p "require(process.argv[1])" "$module" 2>/dev/null)
    if [[ -z $SARIF_MULTITOOL || ! -f $SARIF_MULTITOOL ]]; then
        SARIF_MULTITOOL_MISSING="@microsoft/sarif-multitool has no executable for $platform"
        SARIF_MULTITOOL=
        return 1
    fi
    # npm may skip the package's own postinstall chmod (install scripts
    # not allowed): the cache is ours to fix.
    [[ -x $SARIF_MULTITOOL ]] || chmod u+x "$SARIF_MULTITOOL" 2>/dev/null
    [[ -x $SARIF_MULTITOOL ]] || {
        SARIF_MULTITOOL_MISSING="$SARIF_MULTITOOL is not executable"
        SARIF_MULTITOOL=
        return 1
    }
    return 0
}

# sarif_multitool_validate OUT.sarif FILE...: runs `validate` on the files
# and writes its findings, as a SARIF log, to OUT.sarif. The program's own
# exit code does not tell findings from a clean run, so read the log. It
# runs without ICU (invariant globalization): a minimal Debian has no
# libicu, and nothing here is locale-dependent.
sarif_multitool_validate() {
    local out=$1
    shift
    DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 \
        timeout 300 "$SARIF_MULTITOOL" validate --log ForceOverwrite -o "$out" "$@"
}
