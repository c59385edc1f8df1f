measure --format text tests/fixtures/edge/invalid-ref-image-buffer-view.gltf
