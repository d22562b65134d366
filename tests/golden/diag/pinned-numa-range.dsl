# NUMA node 2 of a two-node machine
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points n[1-3]
}
hardware hgx {
  topology "../../../examples/hgx-b200/hgx-b200.xml"
  sockets 2
  cores_per_socket 96
  threads_per_core 2
  numa 0 {
    nic  ens1f0np0 pci 0000:1a:00.0 role storage
    nvme 0000:21:00.0 0000:22:00.0
  }
  numa 1 {
    nic  ens2f0np0 pci 0000:9a:00.0 role storage
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
  engine numa 1 { pinned_numa_node 2 }
}
nodes n[1-3] : p
