# an engine's explicit drive list names a drive its node block excludes
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
  }
}
nodes gpu[001-014] : converged
node gpu007 {
  exclude nvme 0000:a4:00.0
  engine numa 1 { nvme 0000:a1:00.0 0000:a4:00.0 }
}
