measure examples/assets --shard
