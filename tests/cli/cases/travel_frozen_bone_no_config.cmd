lint examples/assets/walk-frozen-arm.glb
