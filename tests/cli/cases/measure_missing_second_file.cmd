measure examples/assets/walk.glb examples/assets/nope.glb
