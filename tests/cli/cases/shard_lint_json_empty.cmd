lint --shard 12/12 examples/assets --format json
