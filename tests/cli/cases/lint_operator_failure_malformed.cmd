lint --format json examples/assets/walk.glb tests/fixtures/refusals/quantized.gltf
