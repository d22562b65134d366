# a management MTU above the storage NICs', and two node types with different storage MTUs
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  network { storage mtu 9000  mgmt bond active-backup over macvlan mtu 9216 }
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
}
nodes gpu[001-014] : converged
profile small-mtu : converged {
  network { storage mtu 4200 }
}
nodes gpu[015-016] : small-mtu
