measure --format=text examples/assets/walk-travel.glb examples/assets/clip.glb
