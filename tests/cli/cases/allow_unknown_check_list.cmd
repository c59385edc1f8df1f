lint --allow nan,quat-nrom examples/assets/walk.glb
