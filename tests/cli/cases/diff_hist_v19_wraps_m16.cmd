diff tests/fixtures/reports/walk.output-v19-measurements-v16.json examples/assets/walk.glb
