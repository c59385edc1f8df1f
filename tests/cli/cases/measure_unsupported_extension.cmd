measure examples/walk.animsmith.toml
