lint --color sometimes examples/assets/walk-dirty.glb
