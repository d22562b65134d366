# error: UCX marks RDMA with DSCP 24 by hand, the lossless priority is DSCP 26's
daos 2.6
cluster tier0 {
  provider "ucx+rc_x"
  fabric roce {
    gid_index 3
    lossless { priority 3  dscp 26  ecn on }
  }
  access_points gpu[001-003]
  env UCX_IB_TRAFFIC_CLASS=96
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa at end
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
}
nodes gpu[001-004] : converged
