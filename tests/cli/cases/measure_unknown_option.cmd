measure --frobnicate examples/assets/walk.glb
