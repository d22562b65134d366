# dslc-test-args: lint --max-findings 0 tests/golden/yaml/engines-share.yml
