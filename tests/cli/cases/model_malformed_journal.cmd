model inspect tests/fixtures/model/truncated.journal.json --domain overview
