inspect tests/fixtures/refusals/mistyped-track.gltf
