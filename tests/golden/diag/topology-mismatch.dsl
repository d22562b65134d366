# a hand description that disagrees with the export
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points n[1-3]
}
hardware hgx {
  topology "../../../examples/hgx-b200/hgx-b200.xml"
  sockets 2
  cores_per_socket 64
  threads_per_core 1
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
}
nodes n[1-3] : p
