# dslc-test-args: lint --format sarif tests/golden/diag/first-core-outside-numa.dsl
