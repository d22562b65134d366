# error: client environment DAOS reads too early, and a name DAOS sets itself
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points gpu[001-003]
  fabric roce { gid_index 5 }
  client_env FI_MR_CACHE_MONITOR=kdreg2
  client_env D_LOG_MASK=DEBUG
  client_env FI_OFI_RXM_USE_SRX=1
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
pool tier0 { size 90% }
container training in tier0 { type posix  tolerate 1 node failures  checksum crc32 server }
mount /mnt/daos/training {
  container training in tier0
  on gpu001
  env D_LOG_MASK=INFO
  env D_IL_REPORT=1
}
