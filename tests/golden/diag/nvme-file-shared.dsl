# `engine per numa` with an emulated NVMe file gives every engine the same
# path: DAOS refuses a bdev_list entry two engines share
daos 2.6
cluster tier0 {
  provider "ofi+tcp"
  access_points n1
}
include "../../../examples/hgx-b200/hardware.dsl"
profile p : hgx-b200 {
  # dslc: allow scm-ram-volatile -- a test bed
  engine per numa {
    targets 8
    scm ram 16GiB
    nvme file "/var/daos/bdev" size 32GiB
  }
}
node n1 : p
