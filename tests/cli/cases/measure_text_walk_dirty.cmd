measure --format text examples/assets/walk-dirty.glb
