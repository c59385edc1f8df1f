inspect examples/assets/fbx-zup-metres.fbx --format json
