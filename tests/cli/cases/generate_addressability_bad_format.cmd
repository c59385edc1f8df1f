generate addressability examples/assets/walk.glb --format yaml
