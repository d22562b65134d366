# Xeon Max SNC4 with HBM in flat mode: each HBM node shares its DDR node's CPUs; devices are the DDR node's (DAOS's rule), engines pinned by logical index (L#2 is P#1)
daos 2.8
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points n[1-3]
  fabric roce { gid_index 3 }
}
hardware max {
  topology "../../topologies/xeonmax-snc4-1s56c.xml"
  nic auto
  nvme auto
}
profile p : max {
  engine per numa {
    targets 4
    helpers 1
    scm ram 8GiB
    nvme roles [wal meta data]
  }
}
nodes n[1-3] : p
