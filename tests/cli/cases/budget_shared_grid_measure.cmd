measure --format json tests/fixtures/budgets/shared-grid.gltf
