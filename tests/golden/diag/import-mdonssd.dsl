# dslc-test-args: import tests/golden/import/mdonssd.yml --host srv01
