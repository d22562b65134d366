# a node that excludes every drive of one engine, beside MD-on-SSD engines; an engine with drives and no roles
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
    nvme roles [wal meta data]
  }
  engine numa 1 {
    targets 16
    helpers 2
    scm ram 64GiB
  }
}
nodes gpu[001-014] : converged
node gpu007 { exclude nvme 0000:21:00.0 0000:22:00.0 0000:23:00.0 0000:24:00.0 }
