inspect tests/fixtures/refusals/quantized.gltf
