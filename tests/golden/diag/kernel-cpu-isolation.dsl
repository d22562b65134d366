# warning: isolcpus by hand names the engines' physical cores without their SMT siblings
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points gpu[001-003]
  fabric roce { gid_index 5 }
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  os rhel9
  reserve os 4 cores per numa at end
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
  kernel { param isolcpus=0-19,96-115 }
}
nodes gpu[001-004] : converged
