# an engine's explicit list names the drive behind a VMD endpoint by its backing address (c50505:01:00.0 behind 0000:c5:05.5): found, local to NUMA node 5, written as given
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
  engine numa 5 { nvme 0000:c2:00.0 c50505:01:00.0 }
}
nodes n[1-3] : p
