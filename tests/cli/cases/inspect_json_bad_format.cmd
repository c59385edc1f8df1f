inspect examples/assets/walk.glb --format xml
