mesh-quality residual tests/fixtures/meshq/grid.glb tests/fixtures/meshq/coarse.glb --envelope tests/fixtures/meshq/envelope-bad.toml
