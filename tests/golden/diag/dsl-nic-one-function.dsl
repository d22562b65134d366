# one PCI function, three OS devices (an mlx4 card's eth2, ib3, mlx4_0): a
# described NIC may name either interface; a name it does not carry gets
# device-absent listing both, and `nic auto` adds the interface not described
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  fabric infiniband
  access_points n[1-3]
}
hardware by-ib {
  topology "../../topologies/fabrics-nps4-2s96c.xml"
  nic auto
  nvme auto
  numa 6 { nic ib3 pci 0000:e1:00.0 }
}
hardware by-eth {
  topology "../../topologies/fabrics-nps4-2s96c.xml"
  numa 6 { nic eth2 pci 0000:e1:00.0 role mgmt }
}
hardware by-typo {
  topology "../../topologies/fabrics-nps4-2s96c.xml"
  numa 6 { nic ib0 pci 0000:e1:00.0 }
}
profile p : by-ib {
  reserve os 2 cores per numa
  engine numa 6 {
    targets 8
    helpers 2
    scm ram 16GiB
    nvme 0000:e2:00.0
  }
}
nodes n[1-3] : p
