convert examples/assets/mixamo-walk.fbx -o out.glb --bake-static-mesh-transforms
