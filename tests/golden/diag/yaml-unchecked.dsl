# dslc-test-args: lint tests/golden/yaml/scm-unchecked.yml
