diff tests/fixtures/reports/walk.output-v15.json examples/assets/walk.glb
