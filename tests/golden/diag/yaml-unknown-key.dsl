# dslc-test-args: lint tests/golden/yaml/releases.yml --release 2.6
