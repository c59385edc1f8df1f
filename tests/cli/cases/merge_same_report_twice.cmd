merge tests/fixtures/reports/clip-dirty.lint.json tests/fixtures/reports/clip-dirty.lint.json
