inspect tests/fixtures/identity/multi.gltf
