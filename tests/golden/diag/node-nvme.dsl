# dslc-test-args: doctor examples/hgx-b200/cluster.dsl --node gpu005 --root tests/golden/doctor/nvme --topology examples/hgx-b200/hgx-b200.xml --disable node-file,node-unchecked
# A drive bound to ahci: SPDK cannot take it.
