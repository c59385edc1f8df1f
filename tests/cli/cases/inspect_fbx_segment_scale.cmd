inspect examples/assets/fbx-segment-scale.fbx
