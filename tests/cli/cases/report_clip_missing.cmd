report examples/assets/walk.glb -o /tmp/animsmith-refused-report.html --clip run
