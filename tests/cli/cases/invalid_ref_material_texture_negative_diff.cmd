diff tests/fixtures/edge/invalid-ref-base.gltf tests/fixtures/edge/invalid-ref-material-texture-negative.gltf
