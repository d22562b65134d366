# POWER9 with GPU memory NUMA nodes: builds; first_core engines on sockets L#0 and L#1 (P#8); agent numa_node is the OS index
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
}
nodes n[1-3] : p
