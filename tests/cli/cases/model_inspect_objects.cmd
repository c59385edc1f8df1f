model inspect tests/fixtures/model/robot.journal.json --domain objects
