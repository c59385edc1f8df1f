lint --select quat-norm examples/assets/clip-dirty.glb
