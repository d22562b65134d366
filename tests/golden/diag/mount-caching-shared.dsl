# warning: a container mounted read-write on four nodes with dfuse caching on
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
pool tier0 { size 90% }
container training in tier0 { type posix  tolerate 1 node failures  checksum crc32 server }
mount /mnt/daos/training {
  container training in tier0
  on gpu[001-004]
}
