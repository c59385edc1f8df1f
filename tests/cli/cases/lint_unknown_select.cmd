lint --select quat-nrom examples/assets/clip-dirty.glb
