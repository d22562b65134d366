# passing: a reasoned suppression on the line, and one before a block that covers all of it
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
  log_mask DEBUG  # dslc: allow log-mask-debug -- tracing the MGMT hang, ticket 4711
}
include "../../../examples/hgx-b200/hardware.dsl"
# dslc: allow scm-size-unpinned -- sized at first boot by the vendor tool
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram
    nvme roles [wal meta data]
  }
}
nodes gpu[001-014] : converged
