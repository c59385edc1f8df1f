#!/usr/bin/env bash
# `animsmith model apply|inspect|compile` on a journal file: the first
# apply creates the journal, each success appends its batch, a refusal
# exits 2 with one line and leaves the file byte-for-byte untouched, a
# retried request id replays its reply without growing the journal (and is
# refused with other operations), inspect pages the replayed document and
# compile writes a GLB that `animsmith lint` accepts.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
# shellcheck source=lib/expect_exit.sh
. "$src/tests/scripts/lib/expect_exit.sh"
echo '[{"op":"cube","object":"body","size":[0.7,1.0,0.4]}]' >body.json
expect "first apply" 0 "$bin" model apply robot.json body.json --request-id body
grep -q '"replayed":false' out || { echo "FAIL first apply reply: $(cat out)"; fail=1; }
[[ $(grep -c '"request_id"' robot.json) == 1 ]] || { echo "FAIL the journal holds one batch"; fail=1; }
echo '[{"op":"cylinder","object":"arm","radius":0.08,"height":0.8,"segments":8}]' |
    expect "apply from stdin" 0 "$bin" model apply robot.json -
grep -q '"request_id": "batch-2"' robot.json || { echo "FAIL the default request id is batch-2"; fail=1; }
cp robot.json before.json
echo '[{"op":"extrude","object":"body","face":"999","offset":[0,1,0]}]' >bad.json
expect "refused batch" 2 "$bin" model apply robot.json bad.json
[[ $(wc -l <err) == 1 ]] && grep -q 'robot.json: operation 0 (extrude): face "999"' err ||
    { echo "FAIL the refusal is one line naming the file and operation: $(cat err)"; fail=1; }
cmp -s robot.json before.json || { echo "FAIL a refusal changed the journal"; fail=1; }
expect "retried request id" 0 "$bin" model apply robot.json body.json --request-id body
grep -q '"replayed":true' out || { echo "FAIL a retry is replayed: $(cat out)"; fail=1; }
cmp -s robot.json before.json || { echo "FAIL a replay grew the journal"; fail=1; }
expect "reused request id" 2 "$bin" model apply robot.json bad.json --request-id body
expect "inspect" 0 "$bin" model inspect robot.json --object arm --domain vertices --limit 3
grep -q '"next_offset":3' out || { echo "FAIL inspect pages by 3: $(cat out)"; fail=1; }
expect "compile" 0 "$bin" model compile robot.json -o robot.glb
[[ $(head -c 4 robot.glb) == glTF ]] || { echo "FAIL compile wrote no GLB"; fail=1; }
expect "lint of the compiled GLB" 0 "$bin" lint robot.glb
echo '{"format":"animsmith-model-journal","version":2}' >v2.json
expect "a journal of another version" 2 "$bin" model compile v2.json -o x.glb
[[ -e x.glb ]] && { echo "FAIL a refused compile wrote its output"; fail=1; }
[[ $fail == 0 ]] && echo "journal apply, retry, refusal, inspect and compile behave"
exit $fail
