lint --format json examples/assets/walk.glb nosuch.glb
