# dslc-test-args: lint --max-findings 0 tests/golden/diag/nic-ambiguous.dsl
# verbs runs on IB and RoCE and nothing says which: each NUMA node with both gets nic-ambiguous, naming the port dslc takes
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"

  access_points n[1-3]
}
hardware mixed {
  topology "../../topologies/fabrics-nps4-2s96c.xml"
  nic auto
  nvme auto
}
profile p : mixed {
  reserve os 2 cores per numa
  exclude nvme 0000:82:00.0 0000:f2:00.0
  engine per numa {
    targets 8
    helpers 2
    scm ram 16GiB
  }
}
nodes n[1-3] : p
