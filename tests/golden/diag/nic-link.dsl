# error: 16384 receive entries on a ConnectX-7 (mlx5_core takes 8192)
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
  network {
    storage mtu 9000
    link { rx_ring 16384  tx_ring 8192  rx_usecs 8  gro on }
  }
}
nodes gpu[001-004] : converged { storage ens1f0np0 10.20.0.{10+i}/24, ens2f0np0 10.21.0.{10+i}/24 }
