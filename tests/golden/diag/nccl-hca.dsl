# a compute NIC that is a storage NIC too
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points gpu[001-003]
  fabric roce { gid_index 5 }
}
hardware gpunode {
  sockets          1
  cores_per_socket 32
  threads_per_core 1
  memory_per_numa  512GiB
  numa 0 {
    nic  ens1f0np0 pci 0000:1a:00.0 role storage rdma mlx5_0
    nic  ib0 pci 0000:1b:00.0 role compute rdma mlx5_0
    nvme 0000:21:00.0 0000:22:00.0
  }
}
profile converged : gpunode {
  engine per numa {
    targets 8
    scm ram 32GiB
    nvme roles [wal meta data]
  }
}
nodes gpu[001-003] : converged
