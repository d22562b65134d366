# eight findings whose help proposes an exact edit, in one file: `dslc lint
# --fix` applies all of them and the file lints clean (several.fixed)
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  fabric infinband
  access_points n[1-3]
  fabric_port 65000
}
hardware mixed {
  topology "../../topologies/fabrics-nps4-2s96c.xml"
  nic auto
  nvme auto
  numa 6 { nic ib5 pci 0000:e1:00.0 }
}
profile p : mixed {
  os rocky9
  reserve os 2 cores per numa
  exclude nvme 0000:82:00.0 0000:f2:00.0
  engine per numa {
    targest 8
    helpers 2
    scm ram 16GiB
  }
  engine numa 1 { nic ens40f0np0 }
  kernel {
    param isolcpus=0-7
    iommu pt
    param nohz_full=0-7
  }
  kernel { param iommu=off }
}
nodes n[1-3] : p
