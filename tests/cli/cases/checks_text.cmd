checks
