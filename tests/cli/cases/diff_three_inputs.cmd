diff examples/assets/clip.glb examples/assets/clip.glb examples/assets/clip.glb
