checks examples/assets/walk.glb
