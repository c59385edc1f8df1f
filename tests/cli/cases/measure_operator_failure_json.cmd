measure examples/assets/walk.glb nosuch.glb
