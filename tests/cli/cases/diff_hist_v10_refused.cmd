diff tests/fixtures/reports/walk.output-v10.json examples/assets/walk.glb
