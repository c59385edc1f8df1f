measure --format yaml examples/assets/walk.glb
