lint --format sarif examples/assets/walk.glb nosuch.glb
