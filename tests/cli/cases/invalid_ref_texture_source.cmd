measure tests/fixtures/edge/invalid-ref-texture-source.gltf
