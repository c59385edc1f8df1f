inspect examples/assets/mixamo-walk.fbx
