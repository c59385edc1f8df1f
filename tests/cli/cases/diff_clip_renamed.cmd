diff examples/assets/walk.glb examples/assets/walk-travel.glb
