mesh-quality envelope tests/fixtures/meshq/ranges.json --format json
