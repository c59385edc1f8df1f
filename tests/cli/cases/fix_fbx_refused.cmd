fix examples/assets/mixamo-walk.fbx --dry-run
