# CPU 3 (from lscpu) is logical core 7 on a socket-interleaved machine
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points n[1-3]
}
hardware westmere {
  topology "../../topologies/interleaved-2s6c.xml"
  nic auto
}
profile p : westmere {
  reserve os 1 cores per numa
  engine per numa {
    targets 1
    helpers 2
    scm ram 4GiB
  }
  engine numa 1 { first_core 3 }
}
nodes n[1-3] : p
