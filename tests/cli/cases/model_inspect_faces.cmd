model inspect tests/fixtures/model/robot.journal.json --object arm --domain faces --offset 6 --limit 2
