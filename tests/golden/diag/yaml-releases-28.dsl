# dslc-test-args: lint tests/golden/yaml/releases.yml
