lod tests/fixtures/meshq/grid.glb -o $ANIMSMITH_CASE_TMP/half.glb --ratio 0.5 --seams meshopt
