lint --format markdown examples/assets/walk.glb nosuch.glb
