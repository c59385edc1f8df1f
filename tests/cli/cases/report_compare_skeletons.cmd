report examples/assets/walk.glb --compare-after examples/assets/clip.glb --before-clip walk --after-clip swing -o /tmp/animsmith-refused-report.html
