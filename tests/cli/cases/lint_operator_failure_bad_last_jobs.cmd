lint --jobs 2 examples/assets/walk.glb examples/assets/clip.glb tests/fixtures/refusals/quantized.gltf
