lint --frobnicate examples/assets/walk.glb
