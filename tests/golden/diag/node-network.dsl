# dslc-test-args: doctor examples/hgx-b200/cluster.dsl --node gpu005 --root tests/golden/doctor/network --topology examples/hgx-b200/hgx-b200.xml --disable node-file,node-unchecked
# ens1f0np0 at MTU 1500, mv1 on the wrong NIC, and 10.21.0.14 on no interface.
