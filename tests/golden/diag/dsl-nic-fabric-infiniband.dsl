# dslc-test-args: show tests/golden/diag/dsl-nic-fabric-infiniband.dsl n1
# fabric infiniband: every engine takes the IPoIB port of its NUMA node (a VPI card's IB port, the IB interface of an mlx4 function), never the Ethernet RDMA port first in PCI order
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  fabric infiniband
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
