# two engines given one scm_mount, and one log file
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points n[1-3]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile p : hgx-b200 {
  reserve os 4 cores per numa
  engine per numa {
    targets 16
 first_core 2
    scm ram 64GiB
    scm_mount "/mnt/daos"
    log_file "/var/log/daos/engine.log"
  }
}
nodes n[1-3] : p
