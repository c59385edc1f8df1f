lint --expand "$ANIMSMITH_CORPUS/gltf/Soldier.glb"
