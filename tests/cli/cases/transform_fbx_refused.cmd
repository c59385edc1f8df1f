transform examples/assets/mixamo-walk.fbx -o out.glb --prune-constant-tracks
