# NVMe emulated on a file beside real drives (n1), a relative path (n2),
# and a size that is not whole GiB (n3)
daos 2.6
cluster tier0 {
  provider "ofi+tcp"
  access_points n1
}
include "../../../examples/hgx-b200/hardware.dsl"
profile p : hgx-b200 {
  engine numa 0 {
    targets 4
    scm ram 16GiB
    nvme 0000:21:00.0
    nvme file "/tmp/daos-bdev" size 16GiB
  }
}
node n1 : p
node n2 : p { engine numa 1 { targets 4  scm ram 16GiB  nvme file "tmp/daos-bdev" size 1GiB } }
node n3 : p { engine numa 1 { targets 4  scm ram 16GiB  nvme file "/tmp/x" size 1536MiB } }
