# a drive behind a VMD endpoint, named by its backing address
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points n[1-3]
}
hardware epyc-nps4 {
  topology "../../topologies/nps4-2s96c.xml"
  nic auto
  numa 5 { nvme c50505:01:00.0 }
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
