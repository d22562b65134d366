# dslc-test-args: doctor examples/hgx-b200/cluster.dsl --node gpu005 --root tests/golden/doctor/hugepages --topology examples/hgx-b200/hgx-b200.xml --disable node-file,node-unchecked
# 512 pages on NUMA node 0, 2 GiB free and 2 GiB of cache and reclaimable slab (the rest held by processes): daos_server cannot grow the pool to what the engines need.
