measure --shard 1/100001 examples/assets
