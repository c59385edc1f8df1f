merge tests/fixtures/reports/clip-dirty.lint.json
