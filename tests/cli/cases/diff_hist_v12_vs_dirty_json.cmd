diff tests/fixtures/reports/walk.output-v12.json examples/assets/walk-dirty.glb --format json
