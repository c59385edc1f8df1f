fix --help
