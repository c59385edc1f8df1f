fix examples/assets/clip-dirty.glb -o --dry-run
