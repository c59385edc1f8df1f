lint --select nan examples/assets
