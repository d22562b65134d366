# warning: NPS4 drives on a package (several NUMA nodes) and on the machine (none)
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points n[1-3]
}
hardware epyc-nps4 {
  topology "../../topologies/nps4-2s96c.xml"
  nic auto
  nvme auto
}
profile p : epyc-nps4 {
  reserve os 2 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram 16GiB
  }
}
nodes n[1-3] : p
