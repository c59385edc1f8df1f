inspect tests/fixtures/edge/invalid-ref-material-texture-negative.gltf
