# Finds a headless Chromium and the npm module playwright-core that drives
# it, for the report's browser tests. Sourced by tests/scripts/report_browser.sh.
#
# browser_find: sets $BROWSER_CHROMIUM (the executable) and
# $BROWSER_PLAYWRIGHT (the playwright-core module directory) and returns 0,
# or sets $BROWSER_MISSING (what is missing) and returns 1.
#
# Chromium: $ANIMSMITH_CHROMIUM, else Debian's /usr/bin/chromium (the
# `chromium` package, which scripts/bootstrap installs), else `chromium` on
# PATH. playwright-core: $PLAYWRIGHT_CORE_DIR (an `npm install --prefix DIR
# playwright-core` directory, or the module itself), else what node's own
# resolution finds; where npm exists (the development and CI machines) it is
# installed once from the npm registry into the same cache directory the
# glTF-Validator tests use. It never downloads a browser of its own.

# The playwright-core the cache holds: one version for every machine. It is
# the newest that still runs on Debian 12's Node.js 18 (later ones want 20).
BROWSER_PLAYWRIGHT_VERSION=1.61.0

# browser_pinned CACHE: whether CACHE holds that version.
browser_pinned() {
    grep -q "\"version\": *\"$BROWSER_PLAYWRIGHT_VERSION\"" \
        "$1/node_modules/playwright-core/package.json" 2>/dev/null
}

browser_find() {
    BROWSER_CHROMIUM=
    BROWSER_PLAYWRIGHT=
    BROWSER_MISSING=
    local missing=() cand
    for cand in "${ANIMSMITH_CHROMIUM:-}" /usr/bin/chromium "$(command -v chromium 2>/dev/null)"; do
        [[ -n $cand && -x $cand ]] && { BROWSER_CHROMIUM=$cand; break; }
    done
    [[ -n $BROWSER_CHROMIUM ]] ||
        missing+=("chromium (Debian package chromium; or set ANIMSMITH_CHROMIUM)")
    if ! command -v node >/dev/null 2>&1; then
        missing+=("node")
        BROWSER_MISSING="not found: ${missing[*]}"
        return 1
    fi
    if [[ -z ${PLAYWRIGHT_CORE_DIR:-} ]] && ! node -e 'require.resolve("playwright-core")' >/dev/null 2>&1; then
        local cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/animsmith-test-tools
        if ! browser_pinned "$cache"; then
            if command -v npm >/dev/null 2>&1; then
                # Several test scripts may get here at once (ctest -j): one
                # installs, under the lock the validator install uses too.
                mkdir -p "$cache" &&
                    (flock 9 && { browser_pinned "$cache" ||
                        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 timeout 300 npm install --prefix "$cache" \
                            --no-audit --no-fund --silent "playwright-core@$BROWSER_PLAYWRIGHT_VERSION" \
                            >/dev/null 2>&1; }) \
                    9>"$cache/.install.lock" ||
                    echo "note: npm install of playwright-core into $cache failed"
            else
                missing+=("npm (to install playwright-core)")
            fi
        fi
        browser_pinned "$cache" && PLAYWRIGHT_CORE_DIR=$cache
    fi
    if [[ -n ${PLAYWRIGHT_CORE_DIR:-} ]]; then
        for cand in "$PLAYWRIGHT_CORE_DIR/node_modules/playwright-core" "$PLAYWRIGHT_CORE_DIR"; do
            [[ -f $cand/package.json ]] && grep -q '"name": *"playwright-core"' "$cand/package.json" &&
                { BROWSER_PLAYWRIGHT=$cand; break; }
        done
    elif node -e 'require.resolve("playwright-core")' >/dev/null 2>&1; then
        BROWSER_PLAYWRIGHT=$(node -p 'require("path").dirname(require.resolve("playwright-core/package.json"))')
    fi
    [[ -n $BROWSER_PLAYWRIGHT ]] ||
        missing+=("npm module playwright-core (set PLAYWRIGHT_CORE_DIR to an 'npm install --prefix DIR playwright-core' directory)")
    if ((${#missing[@]})); then
        BROWSER_MISSING="not found: $(IFS=';'; echo "${missing[*]}" | sed 's/;/; /g')"
        return 1
    fi
    return 0
}
