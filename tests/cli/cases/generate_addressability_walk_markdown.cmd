generate addressability examples/assets/walk.glb --format markdown
