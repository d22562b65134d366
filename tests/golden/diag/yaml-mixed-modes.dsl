# dslc-test-args: lint tests/golden/yaml/mixed-modes.yml --topology examples/hgx-b200/hgx-b200.xml
