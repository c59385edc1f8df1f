inspect examples/assets/mixamo-walk-ascii.fbx
