merge no-such-report.json
