# engine env values DAOS checks (DD_MASK, DD_SUBSYS); dsl-env-daos-names.dsl: values it overwrites
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
  env DD_MASK="mgmt,bogus"
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  env DD_SUBSYS="vos,nope"
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
}
nodes gpu[001-014] : converged
