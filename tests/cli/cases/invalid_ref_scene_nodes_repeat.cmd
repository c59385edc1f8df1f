measure tests/fixtures/edge/invalid-ref-scene-nodes-repeat.gltf
