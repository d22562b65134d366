# `engine numa 1` before `engine per numa`: the explicit engine stays (here an engine-no-nic error), never dropped
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points gpu[001-003]
}
hardware hgx-b200 {
  sockets 2
  cores_per_socket 96
  memory_per_numa 768GiB
  numa 0 { nic ens1f0np0 pci 0000:1a:00.0  nvme 0000:21:00.0 }
  numa 1 { nvme 0000:a1:00.0 }
}
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  engine numa 1 { targets 16 }
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
}
nodes gpu[001-014] : converged
