# two-socket Omni-Path node, every drive on socket 0, roles on every engine: the engine of socket 1 has none (engine-no-nvme); the help declares engines where the drives are
daos 2.8
cluster tier0 {
  provider "ofi+opx"
  access_points n[1-3]
}
hardware opa {
  topology "../../topologies/opa-nvme0-2s16c.xml"
  nic auto
  nvme auto
}
profile p : opa {
  engine per numa {
    targets 8
    helpers 1
    scm ram 16GiB
    nvme roles [wal meta data]
  }
}
nodes n[1-3] : p
