measure --format text tests/fixtures/refusals/quantized.gltf examples/assets/walk.glb
