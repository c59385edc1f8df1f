inspect examples/assets/walk.glb
