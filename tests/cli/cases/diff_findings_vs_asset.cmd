diff tests/fixtures/reports/clip-dirty.lint.json examples/assets/clip-dirty.glb
