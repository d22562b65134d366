# warning: 1.5 MiB chunks on 8 x 128 KiB = 1 MiB stripes, and a directory's 2.5 MiB
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
  }
}
nodes gpu[001-014] : converged
pool tier0 { size 90% }
container ckpt in tier0 {
  tolerate 2 node failures
  checksum crc32 server
  files large
  chunk 1536KiB
  directory /restart chunk 2560KiB    # its files take EC_8P2GX too
}
