lint "$ANIMSMITH_CORPUS/gltf/Xbot.glb"
