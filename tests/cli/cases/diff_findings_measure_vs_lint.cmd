diff tests/fixtures/reports/clip-dirty.measure.json tests/fixtures/reports/clip-fixed.lint.json
