# independent errors never wait for each other (issue 71): the checker visits
# the NIC of NUMA node 1 before the drives of NUMA node 0, and each is shown
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points n[1-3]
}
hardware hgx {
  topology "../../../examples/hgx-b200/hgx-b200.xml"
  sockets 2
  cores_per_socket 96
  threads_per_core 2
  numa 0 {
    nic  ens1f0np0 pci 0000:1a:00.0 role storage
    nvme 0000:21:00.5 0000:22:00.5
  }
  numa 1 {
    nic  ens2f0np0 pci 0000:9a:00.7 role storage
    nvme 0000:a1:00.0
  }
}
profile p : hgx {
  reserve os 4 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
  }
}
nodes n[1-3] : p
