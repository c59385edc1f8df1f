model apply tests/fixtures/model/robot.journal.json tests/fixtures/model/rig_roll_no_skeleton.ops.json
