# dslc-test-args: lint tests/golden/yaml/types.yml
