# unsafe-value: a kernel parameter GRUB would split at ';' (and run `reboot`),
# with kernel-param-syntax allowed: the safety gate still refuses it
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  os debian12
  reserve os 4 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
  # dslc: allow kernel-param-syntax -- reviewed in ticket 1234
  kernel { param "console=ttyS0;reboot" }
}
nodes gpu[001-014] : converged
