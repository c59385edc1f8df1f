inspect examples/assets/does-not-exist.glb
