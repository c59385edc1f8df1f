model compile tests/fixtures/model/stale.journal.json -o /nonexistent-dir/out.glb
