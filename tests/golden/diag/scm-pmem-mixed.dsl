# PMem on one engine, RAM on the other
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
  }
  engine numa 1 { scm ram 64GiB }
}
nodes daos[01-08] : storage
