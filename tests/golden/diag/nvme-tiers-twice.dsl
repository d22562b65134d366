# a drive in two tiers
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  engine numa 0 {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme tier [wal] 0000:21:00.0
    nvme tier [meta] 0000:21:00.0
    nvme tier [data]
  }
}
nodes gpu[001-014] : converged
