diff tests/fixtures/reports/walk.output-v14.json examples/assets/walk.glb
