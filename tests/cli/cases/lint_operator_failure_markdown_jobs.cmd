lint --format markdown --jobs 2 tests/fixtures/refusals/quantized.gltf examples/assets/walk.glb nosuch.glb
