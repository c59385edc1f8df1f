diff tests/fixtures/reports/walk.output-v11.json examples/assets/walk.glb
