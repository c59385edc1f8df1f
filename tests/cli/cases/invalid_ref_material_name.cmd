inspect tests/fixtures/edge/invalid-ref-material-name.gltf
