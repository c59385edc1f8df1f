lint --shard 2/4 examples/assets
