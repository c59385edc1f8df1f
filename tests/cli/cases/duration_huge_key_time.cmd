lint tests/fixtures/budgets/huge-key-time.gltf
