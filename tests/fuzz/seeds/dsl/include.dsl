daos 2.6
include "/dev/zero"
include "../../../examples/hgx-b200/hardware.dsl"
