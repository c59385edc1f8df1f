lod tests/fixtures/meshq/grid.glb -o $ANIMSMITH_CASE_TMP/lod.glb --max-residual 0.01 --format json
