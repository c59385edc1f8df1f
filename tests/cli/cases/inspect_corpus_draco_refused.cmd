inspect "$ANIMSMITH_CORPUS/gltf/BrainStem_draco.glb"
