lint "$ANIMSMITH_CORPUS/gltf/Soldier.glb"
