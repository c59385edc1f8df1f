inspect tests/fixtures/edge/invalid-ref-scene-nodes-range.gltf
