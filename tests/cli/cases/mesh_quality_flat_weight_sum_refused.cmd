mesh-quality residual tests/fixtures/meshq/flat-weight-sum.json --format text
