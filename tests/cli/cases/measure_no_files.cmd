measure --format json
