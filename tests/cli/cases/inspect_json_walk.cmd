inspect examples/assets/walk.glb --format json
