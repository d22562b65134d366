# an explicit pinned_numa_node that first_core mode (OS cores at the start of
# each NUMA node) would drop: an error, never silence
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
  }
  engine numa 1 { pinned_numa_node 1 }
}
nodes gpu[001-014] : converged
