lint examples/assets/clip-dirty.glb
