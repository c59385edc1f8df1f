inspect tests/fixtures/refusals/poisoned-track.gltf
