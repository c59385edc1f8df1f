diff tests/fixtures/reports/walk.output-v16-rotation-xyzw.json examples/assets/walk.glb
