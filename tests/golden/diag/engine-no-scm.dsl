# an engine block with no scm line: the size proposed is scm-size-unpinned's
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa at end
  engine per numa {
    targets 16
    helpers 2
    nvme roles [wal meta data]
  }
}
nodes gpu[001-014] : converged
