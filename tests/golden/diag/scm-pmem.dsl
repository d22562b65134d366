# two NUMA nodes per socket (SNC), one PMem namespace per socket: the two
# engines of socket 0 would share /dev/pmem0
daos 2.6
cluster aurora {
  provider "ofi+cxi"
  fabric slingshot
  access_points daos[01-03]
}
hardware snc {
  sockets 2
  cores_per_socket 26
  numa_per_socket 2
  memory_per_numa 128GiB
  numa 0 { nic hsn0 pci 0000:0a:00.0 role storage  nvme 0000:7c:00.5 }
  numa 1 { nic hsn1 pci 0000:3a:00.0 role storage  nvme 0000:7d:00.5 }
  numa 2 { nic hsn2 pci 0000:83:00.0 role storage  nvme 0000:81:00.5 }
  numa 3 { nic hsn3 pci 0000:b3:00.0 role storage  nvme 0000:fa:00.5 }
}
profile storage : snc {
  reserve os 1 cores per numa at end
  engine per numa {
    targets 8
    helpers 2
    scm pmem
  }
}
nodes daos[01-08] : storage
