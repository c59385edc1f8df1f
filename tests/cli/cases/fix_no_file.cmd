fix --dry-run
