lint examples/assets/run-ring.glb
