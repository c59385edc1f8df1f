diff examples/assets/no-such-report.JSON examples/assets/clip.glb
