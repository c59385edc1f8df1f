lint tests/fixtures/deep
