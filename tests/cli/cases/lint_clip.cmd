lint examples/assets/clip.glb
