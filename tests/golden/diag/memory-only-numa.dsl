# POWER9 (AC922-like): sockets are NUMA P#0 and P#8, GPU memory nodes P#252-255 have no CPUs; the OS reservation and `engine per numa` pass them by, devices go to the node whose CPUs hold them, an engine declared on GPU memory is an error
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points n[1-3]
}
hardware p9 {
  topology "../../topologies/power9-gpu-2s20c.xml"
  nic auto
  nvme auto
}
profile p : p9 {
  reserve os 2 cores per numa
  engine per numa {
    targets 8
    helpers 2
    scm ram 16GiB
  }
  engine numa 3 { targets 8 }
}
nodes n[1-3] : p
