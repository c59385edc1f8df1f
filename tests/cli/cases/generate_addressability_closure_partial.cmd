generate addressability tests/fixtures/addressability/closure.gltf --format json
