# MD-on-SSD on one engine, engines without drives beside it: a Xeon in SNC4 with storage NICs on NUMA nodes 0, 2 and 5 and every drive on NUMA node 0 (DAOS: code 317)
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points n[1-3]
  fabric roce { gid_index 3 }
}
hardware snc4 {
  topology "../../topologies/snc4-nics3-2s32c.xml"
  nic auto
  nvme auto
}
profile p : snc4 {
  reserve os 1 cores per numa
  engine per numa {
    targets 4
    helpers 1
    scm ram 16GiB
  }
  engine numa 0 { nvme roles [wal meta data] }
}
nodes n[1-3] : p
