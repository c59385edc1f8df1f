diff examples/assets/no-such-clip.glb examples/assets/clip.glb
