mesh-quality residual tests/fixtures/meshq/flat-identical.json --format text
