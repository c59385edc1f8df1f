model apply tests/fixtures/model/robot.journal.json - --preview
