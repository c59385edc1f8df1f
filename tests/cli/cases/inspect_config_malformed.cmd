inspect --config tests/fixtures/configs/syntax-error.toml examples/assets/walk.glb
