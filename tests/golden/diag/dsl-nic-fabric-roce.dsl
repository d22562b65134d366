# dslc-test-args: show tests/golden/diag/dsl-nic-fabric-roce.dsl n1
# fabric roce: the Ethernet ports with an RDMA device (ConnectX RoCE, X722 iWARP, the mlx4 function's eth2) carry the engines; the IB ports are mgmt
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  fabric roce { gid_index 3 }
  access_points n[1-3]
}
hardware mixed {
  topology "../../topologies/fabrics-nps4-2s96c.xml"
  nic auto
  nvme auto
}
profile p : mixed {
  reserve os 2 cores per numa
  exclude nvme 0000:82:00.0 0000:f2:00.0
  engine per numa {
    targets 8
    helpers 2
    scm ram 16GiB
  }
}
nodes n[1-3] : p
