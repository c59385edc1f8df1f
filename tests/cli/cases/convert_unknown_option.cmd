convert examples/assets/mixamo-walk.fbx -o out.glb --frobnicate
