lint examples/assets/walk-dirty.glb
