report examples/assets/walk.glb -o /nonexistent/report.html
