lint --select quat-flip examples/assets/clip-dirty.glb
