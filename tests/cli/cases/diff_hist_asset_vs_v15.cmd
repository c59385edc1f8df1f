diff examples/assets/walk.glb tests/fixtures/reports/walk.output-v15.json
