# dslc-test-args: doctor examples/hgx-b200/cluster.dsl --node gpu005 --root tests/golden/doctor/empty --topology tests/topologies/interleaved-2s6c.xml --disable node-file,node-unchecked,node-nic,node-nvme
# The machine is another one: 2 NUMA nodes of 6 cores with SMT, not 2 of 96.
