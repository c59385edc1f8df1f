diff tests/fixtures/reports/walk.output-v14-row-availability.json examples/assets/walk.glb
