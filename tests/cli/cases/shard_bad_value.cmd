lint --shard 0/3 examples/assets/clip.glb
