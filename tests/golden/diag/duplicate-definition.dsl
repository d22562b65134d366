# a node in two host lists, a setting given twice in one block
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
  engine per numa { targets 8 }
  reserve os 2 cores per numa
}
nodes gpu[001-014] : converged
nodes gpu[014-016] : converged
