fix examples/walk.animsmith.toml --dry-run
