report examples/assets/walk.glb --before-clip walk -o /nonexistent/report.html
