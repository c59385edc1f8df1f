diff tests/fixtures/reports/walk.output-v17.json examples/assets/walk.glb
