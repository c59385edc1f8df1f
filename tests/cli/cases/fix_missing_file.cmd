fix examples/assets/no-such-clip.glb --dry-run
