lint --select nan examples/assets/walk.glb examples/assets
