# 2.8 reserves 64 GiB by default: (1536 - 34 - 64 - 4) / 2 = 717 GiB
# reserved - 2 x 2 engine reserve) / 2 = 741 GiB; 742 is refused
daos 2.8
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
    scm ram 718GiB
    nvme roles [wal meta data]
  }
}
nodes gpu[001-014] : converged
