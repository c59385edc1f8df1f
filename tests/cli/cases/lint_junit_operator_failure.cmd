lint --format junit examples/assets/walk.glb nosuch.glb
