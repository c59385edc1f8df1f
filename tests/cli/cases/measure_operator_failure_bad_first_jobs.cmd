measure --jobs 2 nosuch.glb examples/assets/walk.glb tests/fixtures/refusals/quantized.gltf
