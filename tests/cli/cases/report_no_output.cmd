report examples/assets/walk.glb
