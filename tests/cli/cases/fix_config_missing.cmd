fix examples/assets/clip-dirty.glb --dry-run --config tests/fixtures/edge/no-such-config.toml
