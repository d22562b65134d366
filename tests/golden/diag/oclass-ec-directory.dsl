# EC through oclass also lands on directories; EC as the directory class
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
container a in tier0 {
  tolerate 2 node failures
  checksum crc32 server
  oclass EC_8P2GX
}
container b in tier0 {
  tolerate 2 node failures
  checksum crc32 server
  dir_oclass EC_4P2G1
}
