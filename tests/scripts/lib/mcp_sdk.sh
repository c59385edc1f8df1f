# Finds the official Model Context Protocol TypeScript SDK (npm
# `@modelcontextprotocol/sdk`), whose client drives `animsmith model serve
# --mcp` in tests/scripts/model_mcp_sdk.sh. Sourced by that script.
#
# mcp_sdk_find: sets $MCP_SDK_DIR (a directory whose node_modules holds
# the SDK) and returns 0, or sets $MCP_SDK_MISSING (why) and returns 1.
# Looks at $MCP_SDK_DIR (an `npm install --prefix DIR @modelcontextprotocol/sdk`
# directory); where npm exists (the development and CI machines) it
# installs the pinned version once from the npm registry into the cache
# directory the glTF-Validator and browser tests use, under the same lock.
# A machine without node gets a "skipped" answer.

# One version for every machine: the client's protocol revision and its
# checks of our replies change between releases.
MCP_SDK_VERSION=1.32.2

mcp_sdk_pinned() {
    grep -q "\"version\": *\"$MCP_SDK_VERSION\"" \
        "$1/node_modules/@modelcontextprotocol/sdk/package.json" 2>/dev/null
}

mcp_sdk_find() {
    MCP_SDK_MISSING=
    if ! command -v node >/dev/null 2>&1; then
        MCP_SDK_MISSING="node not found, the MCP SDK client not run"
        return 1
    fi
    if [[ -n ${MCP_SDK_DIR:-} ]]; then
        [[ -f $MCP_SDK_DIR/node_modules/@modelcontextprotocol/sdk/package.json ]] && return 0
        MCP_SDK_MISSING="MCP_SDK_DIR=$MCP_SDK_DIR holds no node_modules/@modelcontextprotocol/sdk"
        return 1
    fi
    local cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/animsmith-test-tools
    if ! mcp_sdk_pinned "$cache" && command -v npm >/dev/null 2>&1; then
        # Several test scripts may get here at once (ctest -j): one
        # installs, under the lock the other npm tools use too.
        mkdir -p "$cache" &&
            (flock 9 && { mcp_sdk_pinned "$cache" ||
                timeout 600 npm install --prefix "$cache" --no-audit --no-fund --silent \
                    "@modelcontextprotocol/sdk@$MCP_SDK_VERSION" >/dev/null 2>&1; }) \
                9>"$cache/.install.lock" ||
            echo "note: npm install of @modelcontextprotocol/sdk into $cache failed"
    fi
    if mcp_sdk_pinned "$cache"; then
        MCP_SDK_DIR=$cache
        return 0
    fi
    MCP_SDK_MISSING="npm module @modelcontextprotocol/sdk@$MCP_SDK_VERSION not found (set MCP_SDK_DIR to an 'npm install --prefix DIR @modelcontextprotocol/sdk' directory)"
    return 1
}
