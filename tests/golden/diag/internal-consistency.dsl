# dslc-test-args: build tests/golden/diag/internal-consistency.dsl -o /tmp/dslc-golden-never-written
# dslc-test-env: DSLC_TEST_CORRUPT=duplicate-drive
# the build's own check: a test seam makes daos_server.yml list engine 0's first drive twice, which DAOS refuses; the YAML linter catches it before anything is written
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
    nvme roles [wal meta data]
  }
}
nodes gpu[001-014] : converged
