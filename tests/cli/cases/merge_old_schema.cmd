merge tests/fixtures/reports/walk.output-v14.json
