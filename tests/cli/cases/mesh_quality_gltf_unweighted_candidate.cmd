mesh-quality residual tests/fixtures/meshq/grid.glb tests/fixtures/meshq/static.glb --envelope-from-clips
