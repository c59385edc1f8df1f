measure --format text tests/fixtures/edge/invalid-ref-material-texture-range.gltf
