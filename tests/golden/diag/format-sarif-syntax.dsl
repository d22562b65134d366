# dslc-test-args: lint --format sarif tests/golden/diag/syntax.dsl
