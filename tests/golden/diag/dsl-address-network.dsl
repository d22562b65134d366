# host addresses that are their subnet's network or broadcast address: {i}
# counts from 0, so 10.10.0.{i}/24 gives gpu001 10.10.0.0; 10.20.0.{254+i}/24
# gives gpu002 the broadcast 10.20.0.255. A /31 (RFC 3021) has neither.
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
  network { storage mtu 9000  mgmt bond active-backup over macvlan }
}
nodes gpu[001-002] : converged {
  mgmt    10.10.0.{i}/24
  storage ens1f0np0 10.20.0.{254+i}/24, ens2f0np0 10.21.0.{i}/31
}
nodes gpu[003-004] : converged { mgmt 10.10.1.{i}/16 }
