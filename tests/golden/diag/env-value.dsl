# dslc-test-args: lint --max-findings 0 tests/golden/yaml/env-and-fault.yml
