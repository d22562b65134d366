# dslc-test-args: lint tests/golden/yaml/agent-fabric-ifaces.yml --topology examples/hgx-b200/hgx-b200.xml
