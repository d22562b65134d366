# warning: the second NUMA node has OS index 2
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points n[1-3]
}
hardware sparse {
  topology "../../topologies/numa-sparse-2s6c.xml"
  nic auto
}
profile p : sparse {
  reserve os 1 cores per numa
  engine per numa {
    targets 1
    helpers 2
    scm ram 4GiB
  }
}
nodes n[1-3] : p
