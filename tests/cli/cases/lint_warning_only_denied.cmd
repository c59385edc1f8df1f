lint --deny-warnings --select quat-flip examples/assets/clip-dirty.glb
