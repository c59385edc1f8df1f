measure --format json examples/assets/walk.glb
