convert examples/assets/mixamo-walk.fbx -o out.glb --animation-only --material-texture-recipe r.toml
