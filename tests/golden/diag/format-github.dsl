# dslc-test-args: lint --format github tests/golden/diag/first-core-outside-numa.dsl
