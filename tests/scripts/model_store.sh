#!/usr/bin/env bash
# The model asset store over `animsmith model serve --store` (SQLite, WAL):
# Character and Prop publications as jobs with their revision, kind, alias
# head and SHA-256 of source and GLB; typed refusals for a stale alias
# head, a missing alias, a kind change and a stale document head;
# model.revisions; model.open by alias compiling to the published bytes;
# request ids that stay consumed after reopening; 200 SIGKILLs at random
# moments of a publication stream, each followed by a check that every
# acknowledged revision is present and every row is whole; and 20 races
# of two servers on one alias with exactly one winner each; 40 rounds of
# three servers opening one new store at once. Needs python3
# (its sqlite3 module reads the database independently of animsmith).
# ANIMSMITH_STORE_KILLS overrides the number of kills.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
command -v python3 >/dev/null || { echo "skipped: python3 not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$src/tests/scripts/lib/model_store.py" "$bin" "$tmp" "${ANIMSMITH_STORE_KILLS:-200}"
