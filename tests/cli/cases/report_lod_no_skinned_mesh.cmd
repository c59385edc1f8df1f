report examples/assets/walk.glb --lod examples/assets/walk.glb -o /tmp/never-written.html
