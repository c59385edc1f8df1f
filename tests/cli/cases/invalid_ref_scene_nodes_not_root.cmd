lint tests/fixtures/edge/invalid-ref-scene-nodes-not-root.gltf
