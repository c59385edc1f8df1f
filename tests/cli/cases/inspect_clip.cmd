inspect examples/assets/clip.glb
