lint --shard 20/20 examples/assets --format json
