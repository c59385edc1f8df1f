measure --shard 2/3 examples/assets/walk.glb examples/assets/clip.glb examples/assets/run-ring.glb examples/assets/clip-dirty.glb --format text
