inspect examples/assets/walk.glb --config tests/fixtures/edge/rig-roles.toml
