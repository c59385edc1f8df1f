lint --format json --allow quat-flip examples/assets/clip-dirty.glb
