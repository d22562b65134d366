# MD-on-SSD roles with PMem, and a PMem size
daos 2.6
cluster aurora {
  provider "ofi+cxi"
  fabric slingshot
  access_points daos[01-03]
}
include "../../../examples/aurora-like/hardware.dsl"
profile storage : coyote {
  reserve os 2 cores per numa at end
  engine per numa {
    targets 16
    helpers 4
    scm pmem
    nvme roles [wal meta data]
  }
}
profile sized : coyote {
  engine per numa { targets 16  helpers 4  scm pmem 512GiB }
}
nodes daos[01-08] : storage
