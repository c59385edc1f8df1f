diff tests/fixtures/reports/walk.output-v16.json examples/assets/walk-dirty.glb
