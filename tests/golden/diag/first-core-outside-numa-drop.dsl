# NUMA-relative first_core with the OS cores at the end: the fix is no first_core
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
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
  engine numa 1 { first_core 0 }
}
nodes gpu[001-014] : converged
