inspect "$ANIMSMITH_CORPUS/gltf/Soldier.glb"
