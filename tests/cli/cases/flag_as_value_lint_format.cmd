lint --format --json examples/assets/walk.glb
