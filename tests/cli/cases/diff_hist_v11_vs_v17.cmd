diff tests/fixtures/reports/walk.output-v11.json tests/fixtures/reports/walk.output-v17.json
