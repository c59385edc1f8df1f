lint --allow quat-flip examples/assets/clip-dirty.glb
