mesh-quality residual tests/fixtures/meshq/grid.glb tests/fixtures/meshq/grid.gltf --envelope-from-clips --max-residual 0
