fix examples/assets/clip-dirty.glb --dry-run --force
