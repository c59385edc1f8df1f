lint tests/fixtures/edge/invalid-ref-material-texture-no-index.gltf
