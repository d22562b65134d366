# one storage template that collides with another node set's: one error at
# the template, not a second, garbled one for each node after it
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
  network { storage mtu 9000  mgmt bond active-backup over macvlan }
}
profile client : hgx-b200 { network { storage mtu 9000  mgmt bond active-backup over macvlan } }
nodes gpu[001-004] : converged {
  mgmt    10.10.0.{10+i}/24
  storage ens1f0np0 10.20.0.{10+i}/24, ens2f0np0 10.21.0.{10+i}/24
}
nodes cn[01-04] : client {
  mgmt    10.10.0.{100+i}/24
  storage ens1f0np0 10.20.0.{11+i}/24, ens2f0np0 10.21.0.{100+i}/24
}
