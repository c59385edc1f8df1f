diff tests/fixtures/reports/clip-dirty.bad-severity.lint.json tests/fixtures/reports/clip-fixed.lint.json
