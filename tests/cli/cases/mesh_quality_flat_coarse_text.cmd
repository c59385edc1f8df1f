mesh-quality residual tests/fixtures/meshq/flat-coarse.json --format text
