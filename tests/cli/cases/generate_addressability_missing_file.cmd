generate addressability no-such-file.glb
