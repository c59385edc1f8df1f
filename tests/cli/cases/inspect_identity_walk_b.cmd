inspect tests/fixtures/identity/walk-b.gltf
