diff examples/assets/walk.glb tests/fixtures/reports/walk.output-v18.json
