# a suppression whose check was skipped because of another error is not "unused":
# removing it would bring its finding back once the error is fixed
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 90 cores per numa
  engine per numa {
    targets 16
    helpers 2
    # dslc: allow scm-size-unpinned -- sized at first boot by the vendor's tool
    scm ram
  }
}
nodes gpu[001-014] : converged
