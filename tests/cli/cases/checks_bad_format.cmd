checks --format yaml
