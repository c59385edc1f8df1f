diff tests/fixtures/reports/walk.output-v12-malformed.json examples/assets/walk.glb
