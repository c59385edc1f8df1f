measure --shard 1/5 examples/assets --format text
