inspect tests/fixtures/edge/clip-names-unique.gltf
