measure examples/assets/mixamo-walk.fbx --format text
