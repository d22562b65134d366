# dslc-test-args: lint tests/golden/yaml/ports-and-pins.yml --topology examples/hgx-b200/hgx-b200.xml
