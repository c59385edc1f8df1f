measure --format json --jobs 2 examples/assets/walk.glb examples/assets/clip.glb nosuch.glb
