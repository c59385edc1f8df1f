#!/usr/bin/env bash
# report refusals: each exits 2 with one `animsmith: ...` line on stderr
# (naming the reason, pinned here by a fragment), nothing on stdout, and
# leaves the directory as it was -- an existing output keeps its bytes
# and its mode (640), the files read stay unchanged, no temporary file is
# left. The refusals: an output that is the input (under other spellings
# and a hard link too), the contract, an external buffer of a .gltf
# input, either input of a comparison; a missing, an ambiguous or a grid-
# less --clip; a comparison of one document with itself (or a byte copy),
# of two skeletons that differ, with missing or misplaced clip options;
# a missing input, an unknown option, a comparison side over the 32 MiB
# pose bound; and an output directory that does not exist.
set -u
. "$(dirname "$0")/lib/script_help.sh"
script_help "$0" "BUILD_DIR SOURCE_DIR" "$@"
script_dirs "$@"
if ! command -v python3 >/dev/null; then
    echo "skipped: python3 not found"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The work happens in $tmp/w; the logs of each run sit beside it.
mkdir "$tmp/w"
cp "$src"/examples/assets/*.glb "$src"/examples/*.animsmith.toml "$tmp/w"/
cd "$tmp/w" || exit 1
fail=0

# Fixtures. w.gltf: walk with its buffer in w.bin beside it.
"$bin" transform walk.glb -o w.gltf >/dev/null || exit 1
cp w.gltf twice.gltf
python3 - <<'PY' || exit 1
import base64, copy, json, struct
g = json.load(open("w.gltf"))
uri = g["buffers"][0]["uri"]
open("w.bin", "wb").write(base64.b64decode(uri.split(",", 1)[1]))
g["buffers"][0]["uri"] = "w.bin"
json.dump(g, open("w.gltf", "w"))
# twice.gltf: two takes named walk.
g = json.load(open("twice.gltf"))
g["animations"].append(copy.deepcopy(g["animations"][0]))
json.dump(g, open("twice.gltf", "w"))

def chain(path, bones, keys, name, lift):
    """bones nodes in one chain, one translation track of keys keys on the root."""
    nodes = [{"name": "b%d" % i, "translation": [0, lift, 0]} for i in range(bones)]
    for i in range(bones - 1):
        nodes[i]["children"] = [i + 1]
    times = [i / 30.0 for i in range(keys)]
    vals = [v for i in range(keys) for v in (0.001 * (i % 7), 1.0, 0.0)]
    raw = struct.pack("<%df" % keys, *times) + struct.pack("<%df" % (3 * keys), *vals)
    g = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes,
         "buffers": [{"byteLength": len(raw), "uri": "data:application/octet-stream;base64," +
                      base64.b64encode(raw).decode()}],
         "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 4 * keys},
                         {"buffer": 0, "byteOffset": 4 * keys, "byteLength": 12 * keys}],
         "accessors": [{"bufferView": 0, "componentType": 5126, "count": keys, "type": "SCALAR",
                        "min": [times[0]], "max": [times[-1]]},
                       {"bufferView": 1, "componentType": 5126, "count": keys, "type": "VEC3"}],
         "animations": [{"name": name, "samplers": [{"input": 0, "output": 1}],
                         "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]}
    json.dump(g, open(path, "w"))

# 1000 bones * 3000 frames * 12 bytes = 34.3 MiB per side, over 32 MiB.
chain("big-before.gltf", 1000, 3000, "long", 0.01)
chain("big-after.gltf", 1000, 3000, "long", 0.02)
# Two keys: no judged pose grid.
chain("two-keys.gltf", 2, 2, "pose", 0.01)
PY
cp walk.glb walk-copy.glb
ln walk.glb walk-hard.glb
ln -s walk.glb walk-link.glb
printf 'keep\n' >kept.html
chmod 640 kept.html walk.glb w.bin walk.animsmith.toml report-comparison-after.glb \
    report-comparison-before.glb

# A fingerprint of the directory: every name, mode, link count and digest
# (a temporary file left behind shows up as a new name).
state() { for f in * .[!.]*; do [[ -e $f || -L $f ]] && echo "$(stat -c '%a %h' "$f") $(sha256sum <"$f" | cut -c1-16) $f"; done; }

# refuse FRAGMENT ARGS...: animsmith ARGS must refuse with FRAGMENT in its
# one stderr line and change nothing.
refuse() {
    local want=$1
    shift
    local before after code
    before=$(state)
    "$bin" "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
    code=$?
    local err
    err=$(cat "$tmp/err.txt")
    after=$(state)
    local what="animsmith $*"
    if [[ $code != 2 ]]; then
        echo "FAIL $what: exit $code, want 2 (stderr: $err)"
        fail=1
    elif [[ -s $tmp/out.txt ]]; then
        echo "FAIL $what: wrote to stdout: $(cat "$tmp/out.txt")"
        fail=1
    elif [[ $(wc -l <<<"$err") != 1 || $err != "animsmith: "* ]]; then
        echo "FAIL $what: stderr is not one 'animsmith: ' line: $err"
        fail=1
    elif [[ $err != *"$want"* ]]; then
        echo "FAIL $what: '$err' does not say '$want'"
        fail=1
    elif [[ $before != "$after" ]]; then
        echo "FAIL $what: the directory changed:"
        diff <(echo "$before") <(echo "$after")
        fail=1
    else
        echo "ok   $err"
    fi
}

pair=(report-comparison-before.glb --compare-after report-comparison-after.glb
      --before-clip acceptance-matrix --after-clip acceptance-matrix)
cmpcfg=(--config report-comparison.animsmith.toml)

# The output may not be a file the report reads.
refuse "walk.glb: the output is the input file" report walk.glb -o walk.glb
refuse "the output is the input file" report walk.glb -o ./walk.glb
refuse "the output is the input file" report walk.glb -o "$tmp/w/walk.glb"
refuse "the output is the input file" report walk.glb -o walk-hard.glb
refuse "the output is the input file" report walk.glb -o walk-link.glb
refuse "the output is the input file" report walk-link.glb -o walk.glb
refuse "the output is the config walk.animsmith.toml" \
    --config walk.animsmith.toml report walk.glb -o walk.animsmith.toml
refuse "w.bin: the output is the input's buffer 0 file" report w.gltf -o w.bin
refuse "the output is the input's buffer 0 file" report w.gltf -o "$tmp/w/w.bin"
refuse "the output is the after input file" "${cmpcfg[@]}" report "${pair[@]}" \
    -o report-comparison-after.glb
refuse "the output is the before input file" "${cmpcfg[@]}" report "${pair[@]}" \
    -o report-comparison-before.glb
# Clips.
refuse "walk.glb: clip 'nope' not found" report walk.glb -o kept.html --clip nope
refuse "twice.gltf: clip 'walk' is ambiguous" report twice.gltf -o kept.html --clip walk
refuse "clip 'pose' (animation 0) has no judged pose grid" report two-keys.gltf -o kept.html --clip pose
refuse "clip 'nope' not found" "${cmpcfg[@]}" report report-comparison-before.glb \
    --compare-after report-comparison-after.glb --before-clip acceptance-matrix \
    --after-clip nope -o kept.html
# Comparisons.
refuse "are the same document" report walk.glb --compare-after walk.glb --before-clip walk \
    --after-clip walk -o kept.html
refuse "are the same document" report walk.glb --compare-after walk-copy.glb --before-clip walk \
    --after-clip walk -o kept.html
refuse "the comparison needs the same named skeleton on both sides" report walk.glb \
    --compare-after clip.glb --before-clip walk --after-clip swing -o kept.html
refuse "--compare-after needs both --before-clip NAME and --after-clip NAME" \
    report walk.glb --compare-after walk-dirty.glb -o kept.html
refuse "--compare-after needs both --before-clip NAME and --after-clip NAME" \
    report walk.glb --compare-after walk-dirty.glb --before-clip walk -o kept.html
refuse "--before-clip and --after-clip need --compare-after" report walk.glb --before-clip walk -o kept.html
refuse "--before-clip and --after-clip need --compare-after" report walk.glb --after-clip walk -o kept.html
refuse "--clip is for a single-document report" report walk.glb --clip walk \
    --compare-after walk-dirty.glb --before-clip walk --after-clip walk -o kept.html
refuse "beyond the comparison's 32 MiB bound per side; use --evidence-only" report big-before.gltf \
    --compare-after big-after.gltf --before-clip long --after-clip long -o kept.html
# The command line.
refuse "missing.glb" report missing.glb -o kept.html
refuse "unknown option '--bogus'" report walk.glb -o kept.html --bogus
refuse "report requires --output" report walk.glb
refuse "--output given more than once" report walk.glb -o kept.html -o other.html
refuse "report reads .glb, .gltf or .fbx" report walk.animsmith.toml -o kept.html
refuse "report takes exactly one file" report walk.glb walk-dirty.glb -o kept.html
# An output directory that does not exist: nothing is written anywhere.
refuse "nodir/report.html" report walk.glb -o nodir/report.html
[[ -e nodir ]] && { echo "FAIL nodir was created"; fail=1; }

# The bound is on the pose data: the same pair as evidence only is fine.
if "$bin" report big-before.gltf --compare-after big-after.gltf --before-clip long \
    --after-clip long -o big.html --evidence-only >/dev/null 2>&1; then
    echo "ok   the over-bound pair renders as evidence only"
else
    echo "FAIL the over-bound pair was refused as evidence only too"
    fail=1
fi
# A refusal between two good runs: the output of the first run stays.
"$bin" report walk.glb -o good.html >/dev/null && cp good.html good.copy
"$bin" report walk.glb -o good.html --clip nope 2>/dev/null
if cmp -s good.html good.copy; then
    echo "ok   a refused run keeps the previous report"
else
    echo "FAIL a refused run changed the previous report"
    fail=1
fi
exit $fail
