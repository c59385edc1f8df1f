lint --allow nann examples/assets/walk.glb
