merge README.md
