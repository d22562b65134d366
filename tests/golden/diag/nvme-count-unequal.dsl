# note: one node lost three drives of NUMA node 1: DAOS starts with code 714
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
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
node gpu003 {
  exclude nvme 0000:a2:00.0 0000:a3:00.0 0000:a4:00.0
}
