# one PCI address described as a NIC and as a drive
daos 2.6
cluster tier0 {
  provider "ofi+tcp;ofi_rxm"
  access_points n[1-3]
}
hardware h {
  sockets 2
  cores_per_socket 16
  memory_per_numa 128GiB
  numa 0 { nic eth0 pci 0000:80:00.0 role storage  nvme 0000:10:00.0 0000:80:00.0 }
  numa 1 { nic eth1 pci 0000:81:00.0 role storage  nvme 0000:11:00.0 }
}
profile p : h {
  engine per numa {
    targets 4
    scm ram 16GiB
  }
}
nodes n[1-3] : p
