# dslc-test-args: doctor tests/golden/diag/node-sysctl.dsl --node gpu001 --root tests/golden/doctor/file --topology examples/hgx-b200/hgx-b200.xml --disable node-unchecked
# The node's files against its built tree: daos_server.yml edited by hand during
# an incident, daos_agent.yml made executable, the sysctl file never installed.
