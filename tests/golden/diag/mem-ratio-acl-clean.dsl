# an ACL and mem_ratio that DAOS 2.8 takes (no finding)
daos 2.8
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
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
nodes gpu[001-014] : converged
pool tier0 {
  size 90%
  mem_ratio 12.5%
  acl "A::OWNER@:rw" "A:G:GROUP@:r" "A::alice@example.com:rwcd" "A:G:ml@:r" "U:F:EVERYONE@:rw"
}
