# NUMA-relative first_core on the NUMA 1 engine, whose scm_mount and log_file
# are written: the first_core finding alone. dslc lint and build dereferenced
# NULL here (the engine's paths were set only once it was placed, the output
# safety pass read them on every engine; found by fuzz_output)
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
  engine numa 0 { scm_mount "/mnt/daos0" log_file "/var/log/daos/engine0.log" }
  engine numa 1 { first_core 4 scm_mount "/mnt/daos1" log_file "/var/log/daos/engine1.log" }
}
nodes gpu[001-014] : converged
