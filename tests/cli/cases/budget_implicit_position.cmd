measure tests/fixtures/budgets/implicit-position.gltf
