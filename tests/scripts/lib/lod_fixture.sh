# lod_fixture DIR: writes DIR/ball.glb, a skinned UV sphere authored with
# `animsmith model` (three joints, automatic weights) whose clip turns the
# hips and sways the chest, so every surface point moves, and DIR/half.glb,
# its plain half (`lod --ratio 0.5 --seams meshopt`). $bin is the caller's.
# Returns 1 (with a FAIL line) when a step fails. Sourced by the report's
# --lod tests.
lod_fixture() {
    local dir=$1
    cat >"$dir/lod-mesh.json" <<'JSON'
[{"op":"sphere","object":"body","radius":0.5,"segments":48,"rings":32},
 {"op":"material","material":0,"color":[0.8,0.8,0.8]}]
JSON
    cat >"$dir/lod-rig.json" <<'JSON'
[{"op":"skeleton","joints":[
   {"name":"hips","parent":null,"translation":[0,-0.5,0]},
   {"name":"chest","parent":0,"translation":[0,0.5,0]},
   {"name":"head","parent":1,"translation":[0,0.4,0]}]},
 {"op":"auto_weights","object":"body"},
 {"op":"clip","name":"sway","channels":[
   {"joint":0,"path":"rotation","keys":[
     {"time":0,"value":[0,0,0,1]},
     {"time":0.5,"value":[0,0.3826834323650898,0,0.9238795325112867]},
     {"time":1,"value":[0,0,0,1]}]},
   {"joint":1,"path":"rotation","keys":[
     {"time":0,"value":[0,0,0,1]},
     {"time":0.5,"value":[0,0,0.0871557427476582,0.9961946980917455]},
     {"time":1,"value":[0,0,0,1]}]}]}]
JSON
    rm -f "$dir/lod-ball.json"
    if ! "$bin" model apply "$dir/lod-ball.json" "$dir/lod-mesh.json" --request-id mesh >/dev/null ||
        ! "$bin" model apply "$dir/lod-ball.json" "$dir/lod-rig.json" --request-id rig >/dev/null ||
        ! "$bin" model compile "$dir/lod-ball.json" -o "$dir/ball.glb" >/dev/null ||
        ! "$bin" lod "$dir/ball.glb" -o "$dir/half.glb" --ratio 0.5 --seams meshopt >/dev/null; then
        echo "FAIL the --lod fixture (a skinned sphere and its half) could not be made"
        return 1
    fi
}
