# fabric infiniband: a hand-described storage NIC that is the Ethernet port of
# a VPI card is a nic-wrong-fabric error whose help names the IB port of the
# NUMA node (nic-wrong-fabric-engine.dsl: an engine override)
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  fabric infiniband
  access_points n[1-3]
}
hardware mixed {
  topology "../../topologies/fabrics-nps4-2s96c.xml"
  nic auto
  numa 2 { nic enp33s0f0 pci 0000:21:00.0 }
}
profile p : mixed {
  reserve os 2 cores per numa
  engine numa 1 {
    targets 8
    helpers 2
    scm ram 16GiB
  }
  engine numa 2 {
    targets 8
    helpers 2
    scm ram 16GiB
  }
}
nodes n[1-3] : p
