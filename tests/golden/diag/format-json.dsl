# dslc-test-args: lint --format json tests/golden/diag/first-core-outside-numa.dsl
