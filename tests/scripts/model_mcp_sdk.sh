#!/usr/bin/env bash
# The official MCP client (npm @modelcontextprotocol/sdk, pinned in
# lib/mcp_sdk.sh) drives `animsmith model serve --mcp` over its stdio
# transport (tests/mcp/model_session.mjs): tools/list with an inputSchema
# per tool, open, apply, paged inspect, a refusal as an isError result,
# undo, compile and close; the compiled GLB is then linted (exit 0).
# Skipped, like the other npm-based tests, where node or the module is
# missing.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
# shellcheck source=lib/mcp_sdk.sh
. "$src/tests/scripts/lib/mcp_sdk.sh"
if ! mcp_sdk_find; then
    echo "skipped: $MCP_SDK_MISSING"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
(cd "$tmp" && timeout 300 node "$src/tests/mcp/model_session.mjs" "$MCP_SDK_DIR" "$bin" "$tmp/bot.glb") || fail=1
if [[ -s $tmp/bot.glb ]]; then
    if (cd "$tmp" && "$bin" lint bot.glb >"$tmp/lint.txt" 2>&1); then
        echo "ok   animsmith lint of the GLB compiled over MCP: exit 0"
    else
        echo "FAIL animsmith lint of the GLB compiled over MCP:"
        cat "$tmp/lint.txt"
        fail=1
    fi
fi
exit $fail
