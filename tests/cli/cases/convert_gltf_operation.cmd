convert examples/assets/walk.glb -o out.glb --bake-static-mesh-transforms
