lint tests/fixtures/budgets/shared-grid.gltf
