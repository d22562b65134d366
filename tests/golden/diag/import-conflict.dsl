# dslc-test-args: import tests/golden/import/first.yml tests/golden/import/stale.yml --host srv01,srv02
