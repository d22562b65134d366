# dslc-test-args: lint --format github tests/golden/diag/no-such-file.dsl
# an input that cannot be read is a finding in every machine format
