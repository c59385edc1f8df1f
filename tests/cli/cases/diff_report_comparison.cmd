diff examples/assets/report-comparison-before.glb examples/assets/report-comparison-after.glb
