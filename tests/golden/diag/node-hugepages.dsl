# dslc-test-args: doctor examples/hgx-b200/cluster.dsl --node gpu005 --root tests/golden/doctor/hugepages --topology examples/hgx-b200/hgx-b200.xml --disable node-file,node-unchecked
# 512 pages on NUMA node 0 and 2 GiB free: daos_server cannot grow the pool to what the engines need.
