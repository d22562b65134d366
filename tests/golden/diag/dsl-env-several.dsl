# several env and client_env entries on a line (issue 55): each is read and
# checked on its own; the second client_env line's D_LOG_MASK is client-env at
# its own column, and a name given twice in one block is a duplicate
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
  client_env FI_MR_CACHE_MONITOR=kdreg2 FI_UNIVERSE_SIZE=2048
  client_env "FI_MR_CACHE_MAX_COUNT=0" "D_LOG_MASK=DEBUG"
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa at end
  env DD_MASK=mgmt  ABT_THREAD_STACKSIZE=65536 DD_MASK=io
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
}
nodes gpu[001-014] : converged
