measure --jobs --format examples/assets/walk.glb
