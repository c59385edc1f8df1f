generate addressability examples/assets/walk.glb
