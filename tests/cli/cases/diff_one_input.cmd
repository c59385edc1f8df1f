diff examples/assets/clip.glb
