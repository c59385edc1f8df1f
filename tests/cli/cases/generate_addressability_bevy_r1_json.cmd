generate addressability examples/assets/walk.glb --config examples/bevy.animsmith.toml
