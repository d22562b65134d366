# dslc-test-args: lint tests/golden/yaml/ports-and-pins.yml
