model inspect tests/fixtures/model/no-request-id.journal.json --domain overview
