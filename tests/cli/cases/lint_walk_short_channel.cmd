lint examples/assets/walk-short-channel.glb
