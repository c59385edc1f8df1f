#!/usr/bin/env python3
"""Prints the check ids of every error-severity finding in an
`animsmith lint --format json` report (usage: lint_errors.py REPORT.json),
space-separated, so a test can require an empty line."""
import json
import sys


def walk(v):
    if isinstance(v, dict):
        if v.get("severity") == "error":
            yield v.get("check", "?")
        for x in v.values():
            yield from walk(x)
    elif isinstance(v, list):
        for x in v:
            yield from walk(x)


print(" ".join(walk(json.load(open(sys.argv[1])))))
