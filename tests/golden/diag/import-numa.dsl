# dslc-test-args: import tests/golden/import/numa.yml --host srv01
