lint --format json --jobs 2 nosuch.glb examples/assets/walk.glb tests/fixtures/refusals/quantized.gltf examples/assets/run-ring.glb
