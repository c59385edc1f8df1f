fix examples/assets/clip-dirty.glb -o examples/assets/clip-dirty.glb
