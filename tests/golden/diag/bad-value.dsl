# missing and decimal units, a template that is not an expression
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
  crt_timeout 600
  system_ram_reserved 16G
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
node gpu001 { mgmt 10.10.0.{255+n}/24 }
nodes x[1-2] : converged { mgmt 10.10.1.{x}/24 }
