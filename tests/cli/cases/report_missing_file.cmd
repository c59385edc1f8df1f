report examples/assets/no-such-clip.glb -o /tmp/animsmith-refused-report.html
