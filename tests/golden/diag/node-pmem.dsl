# dslc-test-args: doctor examples/aurora-like/cluster.dsl --node daos0001 --root tests/golden/doctor/pmem --disable node-file,node-unchecked,node-iommu
# pmem0's namespace in raw mode (no DAX), pmem1's gone.
