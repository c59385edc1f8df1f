mesh-quality residual tests/fixtures/meshq/grid-textured.glb tests/fixtures/meshq/coarse.glb --envelope-from-clips --max-residual 0.6
