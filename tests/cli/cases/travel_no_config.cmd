lint examples/assets/walk-travel.glb
