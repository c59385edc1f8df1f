inspect tests/fixtures/edge/duplicate-bones.gltf
