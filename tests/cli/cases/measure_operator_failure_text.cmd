measure --format text examples/assets/walk.glb nosuch.glb
