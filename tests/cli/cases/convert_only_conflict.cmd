convert examples/assets/mixamo-walk.fbx -o out.glb --animation-only --bake-static-mesh-transforms
