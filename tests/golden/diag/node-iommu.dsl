# dslc-test-args: doctor examples/hgx-b200/cluster.dsl --node gpu005 --root tests/golden/doctor/iommu --topology examples/hgx-b200/hgx-b200.xml --disable node-file,node-unchecked
# /sys/class exists and no IOMMU is registered in it (VT-d off in the BIOS).
