lint examples/assets/mixamo-walk.fbx
