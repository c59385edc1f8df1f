lod tests/fixtures/meshq/grid.glb -o $ANIMSMITH_CASE_TMP/over.glb --ratio 0.5 --max-residual 0.001
