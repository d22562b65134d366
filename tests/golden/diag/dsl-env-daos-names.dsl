# engine env values DAOS overwrites (D_LOG_FILE, VOS_BDEV_CLASS); dsl-env-daos-masks.dsl: values it checks
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
    env D_LOG_FILE=/tmp/engine.log
    env VOS_BDEV_CLASS=NVME
  }
}
nodes gpu[001-014] : converged
