# addresses that reach no file: no network block applies to these nodes
daos 2.6
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
nodes gpu[001-004] : converged {
  mgmt    10.10.0.{10+i}/24
  storage ens1f0np0 10.20.0.{10+i}/24, ens2f0np0 10.21.0.{10+i}/24
}
