# dslc-test-args: import tests/golden/import/unsupported.yml --host srv01
