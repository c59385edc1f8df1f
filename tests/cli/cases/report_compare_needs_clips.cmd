report examples/assets/report-comparison-before.glb --compare-after examples/assets/report-comparison-after.glb -o /nonexistent/report.html
