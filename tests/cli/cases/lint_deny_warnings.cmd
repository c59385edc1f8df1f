lint --deny-warnings examples/assets/clip-dirty.glb
