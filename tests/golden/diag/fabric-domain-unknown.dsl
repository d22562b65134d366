# warning: a Slingshot NIC without its cxi device: no fabric_ifaces for the agent
daos 2.6
cluster aurora {
  provider "ofi+cxi"
  access_points daos[01-03]
}
hardware coyote {
  sockets 2
  cores_per_socket 26
  threads_per_core 2
  memory_per_numa 256GiB
  numa 0 {
    nic hsn0 pci 0000:0a:00.0 role storage rdma cxi0
    nvme 0000:7c:00.5
  }
  numa 1 {
    nic hsn1 pci 0000:83:00.0 role storage
    nvme 0000:81:00.5
  }
}
profile storage : coyote {
  os rhel9
  reserve os 2 cores per numa at end
  engine per numa {
    targets 16
    helpers 4
    scm ram 64GiB
    nvme roles [wal meta data]
  }
}
nodes daos[01-03] : storage
