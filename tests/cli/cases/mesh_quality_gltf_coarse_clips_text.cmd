mesh-quality residual tests/fixtures/meshq/grid.glb tests/fixtures/meshq/coarse.glb --envelope-from-clips --max-residual 0.6
