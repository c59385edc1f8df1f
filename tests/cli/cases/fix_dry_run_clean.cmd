fix examples/assets/clip.glb --dry-run
