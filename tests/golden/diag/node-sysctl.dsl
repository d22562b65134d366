# dslc-test-args: doctor tests/golden/diag/node-sysctl.dsl --node gpu001 --root tests/golden/doctor/sysctl --topology examples/hgx-b200/hgx-b200.xml --disable node-file,node-unchecked
# Both storage NICs on one subnet: dslc writes per-NIC ARP sysctls; on the
# node ens1f0np0 still answers ARP for every address (arp_ignore 0).
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points gpu001
  fabric roce { gid_index 3 }
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  os azurelinux3
  reserve os 4 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
  }
  network { storage mtu 9000 }
}
nodes gpu001 : converged {
  storage ens1f0np0 10.20.0.11/24, ens2f0np0 10.20.0.12/24
}
