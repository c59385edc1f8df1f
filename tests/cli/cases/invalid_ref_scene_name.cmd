measure tests/fixtures/edge/invalid-ref-scene-name.gltf
