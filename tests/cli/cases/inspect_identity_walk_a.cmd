inspect tests/fixtures/identity/walk-a.gltf
