report examples/assets/walk.glb --compare-after examples/assets/walk.glb --before-clip walk --after-clip walk -o /tmp/animsmith-refused-report.html
