# dslc-test-args: doctor examples/hgx-b200/cluster.dsl --node gpu005 --root tests/golden/doctor/empty --topology tests/topologies/hgx-b200-nic-moved.xml --disable node-file,node-unchecked
# The first storage NIC sits in a slot of NUMA node 1.
