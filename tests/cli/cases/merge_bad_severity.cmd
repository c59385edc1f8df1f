merge tests/fixtures/reports/clip-dirty.bad-severity.lint.json
