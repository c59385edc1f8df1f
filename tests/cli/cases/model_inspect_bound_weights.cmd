model inspect tests/fixtures/model/skin.journal.json --object strip --domain weights --limit 3
