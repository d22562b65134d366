# dslc-test-args: show tests/golden/diag/dsl-nic-fabric-slingshot.dsl n1 --format json
# fabric slingshot with ofi+cxi: only the Slingshot NIC of NUMA node 4 is storage (JSON: fabric_iface_choice and each NIC's link)
daos 2.6
cluster tier0 {
  provider "ofi+cxi"
  fabric slingshot
  access_points n[1-3]
}
hardware mixed {
  topology "../../topologies/fabrics-nps4-2s96c.xml"
  nic auto
  nvme auto
}
profile p : mixed {
  reserve os 2 cores per numa
  exclude nvme 0000:42:00.0 0000:22:00.0 0000:c2:00.0 0000:e2:00.0 0000:f2:00.0
  engine per numa {
    targets 8
    helpers 2
    scm ram 16GiB
  }
}
nodes n[1-3] : p
