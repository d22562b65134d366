# cb_config_list values that are not one hints-file line of <host>:<n>
# entries: a blank that would start another hint, an empty list, a zero count
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points gpu[001-003]
  fabric roce { gid_index 5 }
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
profile client : hgx-b200 { os azurelinux3 }
nodes gpu[001-004] : converged
nodes cn[01-02] : client
pool tier0 { size 90% svc_rf 2 }
container training in tier0 { type posix tolerate 1 node failures checksum crc32 server }
mount /mnt/a {
  container training in tier0
  caching off
  mpiio { cb_config_list "*:1 romio_cb_read disable" }
}
mount /mnt/b {
  container training in tier0
  on gpu001
  caching off
  mpiio { cb_config_list "" }
}
mount /mnt/c {
  container training in tier0
  on gpu002
  caching off
  mpiio { cb_config_list "cn01:0" striping_unit 1MiB }
}
