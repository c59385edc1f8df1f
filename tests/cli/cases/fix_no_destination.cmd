fix examples/assets/clip-dirty.glb
