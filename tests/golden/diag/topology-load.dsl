# an export that is not there
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points n[1-3]
}
hardware hgx {
  topology "../../topologies/hgx-b200-v3.xml"
}
profile p : hgx {
  reserve os 4 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
  }
}
nodes n[1-3] : p
