convert examples/assets/mixamo-walk.fbx
