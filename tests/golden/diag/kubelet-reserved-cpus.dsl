# an override that leaves the NUMA 1 engine CPUs to pods
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  # dslc: allow kubelet-hugepages -- a ResourceQuota keeps pods off hugepages
  kubelet { reserved_cpus "0-23,192-215" }
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
}
nodes gpu[001-014] : converged
