mesh-quality residual tests/fixtures/meshq/static.glb tests/fixtures/meshq/static.glb --mesh Quad --envelope-from-clips
