fix examples/assets/clip-dirty.glb --dry-run --repair quat-flip
