lint examples/assets/walk-scaled.glb
