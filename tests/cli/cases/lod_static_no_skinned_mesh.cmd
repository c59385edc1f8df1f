lod tests/fixtures/meshq/static.glb -o $ANIMSMITH_CASE_TMP/static.glb --max-residual 0.01
