diff examples/assets/walk.glb examples/assets/walk-dirty.glb
