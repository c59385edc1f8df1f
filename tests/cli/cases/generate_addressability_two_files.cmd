generate addressability examples/assets/walk.glb examples/assets/clip.glb
