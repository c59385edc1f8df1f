inspect tests/fixtures/refusals/quantized-declared-used-only.gltf
