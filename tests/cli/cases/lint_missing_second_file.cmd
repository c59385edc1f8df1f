lint examples/assets/clip.glb examples/assets/nope.glb
