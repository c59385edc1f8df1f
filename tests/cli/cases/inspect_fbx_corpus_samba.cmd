inspect $ANIMSMITH_CORPUS/fbx/Samba_Dancing.fbx
