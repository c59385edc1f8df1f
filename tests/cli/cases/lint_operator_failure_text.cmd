lint examples/assets/walk.glb nosuch.glb
