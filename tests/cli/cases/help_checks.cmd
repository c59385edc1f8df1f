help checks
