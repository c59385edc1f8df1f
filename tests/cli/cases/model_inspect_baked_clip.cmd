model inspect tests/fixtures/model/pose.journal.json --domain clips
