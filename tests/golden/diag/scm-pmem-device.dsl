# a namespace the hardware does not have, and one on the other NUMA node
daos 2.6
cluster aurora {
  provider "ofi+cxi"
  fabric slingshot
  access_points daos[01-03]
}
include "../../../examples/aurora-like/hardware.dsl"
profile storage : coyote {
  reserve os 2 cores per numa at end
  engine numa 0 { targets 16  helpers 4  scm pmem /dev/pmem1 }
  engine numa 1 { targets 16  helpers 4  scm pmem /dev/pmem7 }
}
nodes daos[01-08] : storage
