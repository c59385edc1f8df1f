measure --format text $ANIMSMITH_CORPUS/gltf/Wizard.glb
