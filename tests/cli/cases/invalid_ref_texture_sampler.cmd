lint tests/fixtures/edge/invalid-ref-texture-sampler.gltf
