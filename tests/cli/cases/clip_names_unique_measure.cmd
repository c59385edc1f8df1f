measure --format text tests/fixtures/edge/clip-names-unique.gltf
