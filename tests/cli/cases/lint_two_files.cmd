lint examples/assets/clip.glb examples/assets/clip-dirty.glb
