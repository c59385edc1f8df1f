diff tests/fixtures/reports/walk.output-v13.json examples/assets/walk.glb
