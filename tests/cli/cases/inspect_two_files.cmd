inspect examples/assets/clip.glb examples/assets/walk.glb
