inspect $ANIMSMITH_CORPUS/gltf/Fox.glb --format=json
