checks --format json
