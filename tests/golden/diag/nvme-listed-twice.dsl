# a drive twice in one engine's list, and a backing address beside its own VMD endpoint (DAOS: "bdev_list: duplicate PCI address")
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
  engine numa 1 { nvme 0000:42:00.0 0000:43:00.0 0000:42:00.0 }
  engine numa 5 { nvme 0000:c2:00.0 0000:c5:05.5 c50505:01:00.0 }
}
nodes n[1-3] : p
