diff tests/fixtures/reports/clip-fixed.lint.json tests/fixtures/reports/clip-dirty.lint.json
