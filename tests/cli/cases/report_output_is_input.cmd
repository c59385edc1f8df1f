report examples/assets/walk.glb -o examples/assets/walk.glb
