# a node's tiers replace its profile's: the explicit addresses of gpu002's
# tiers, the rest in the data tier, gpu002 builds (no finding)
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  engine numa 0 {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme tier [wal] drives 1
    nvme tier [meta data]
  }
}
nodes gpu[001-014] : converged
node gpu002 {
  engine numa 0 {
    nvme tier [wal] 0000:24:00.0
    nvme tier [meta] 0000:23:00.0
    nvme tier [data]
  }
}
