# fabric infiniband: an engine override naming an Ethernet RDMA port is a
# nic-wrong-fabric error whose help names the IB port of the NUMA node
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  fabric infiniband
  access_points n[1-3]
}
hardware mixed {
  topology "../../topologies/fabrics-nps4-2s96c.xml"
  nic auto
}
profile p : mixed {
  reserve os 2 cores per numa
  engine numa 1 {
    targets 8
    helpers 2
    scm ram 16GiB
    nic ens40f0np0
  }
  engine numa 2 {
    targets 8
    helpers 2
    scm ram 16GiB
  }
}
nodes n[1-3] : p
