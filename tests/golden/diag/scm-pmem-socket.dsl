# PMem without a hardware pmem line: /dev/pmem<socket> (no finding)
daos 2.6
cluster aurora {
  provider "ofi+cxi"
  fabric slingshot
  access_points daos[01-03]
}
hardware plain {
  sockets 2
  cores_per_socket 26
  threads_per_core 2
  memory_per_numa 256GiB
  numa 0 { nic hsn0 pci 0000:0a:00.0 role storage  nvme 0000:7c:00.5 }
  numa 1 { nic hsn1 pci 0000:83:00.0 role storage  nvme 0000:81:00.5 }
}
profile storage : plain {
  reserve os 2 cores per numa at end
  engine per numa { targets 16  helpers 4  scm pmem }
}
nodes daos[01-08] : storage
