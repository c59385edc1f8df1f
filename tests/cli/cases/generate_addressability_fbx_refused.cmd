generate addressability examples/assets/mixamo-walk.fbx
