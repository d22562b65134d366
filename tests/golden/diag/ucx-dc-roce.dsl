# warning: ucx+dc_x on RoCE with DAOS 2.6 (DAOS-18828)
daos 2.6
cluster tier0 {
  provider "ucx+dc_x"
  access_points gpu[001-003]
  fabric roce { gid_index 5 }
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa at end
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
}
nodes gpu[001-004] : converged
