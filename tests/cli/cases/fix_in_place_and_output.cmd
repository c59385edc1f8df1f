fix examples/assets/clip-dirty.glb --in-place -o fixed.glb
