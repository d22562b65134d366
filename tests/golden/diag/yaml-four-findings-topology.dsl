# dslc-test-args: lint tests/golden/yaml/four-findings.yml --topology examples/hgx-b200/hgx-b200.xml
