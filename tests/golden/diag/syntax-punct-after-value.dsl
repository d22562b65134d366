# a ',' glued to a keyword's value: the value ended there, which is the cause
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"
  access_points n[1-3]
  env FI_UNIVERSE_SIZE=2048,FI_OFI_RXM_USE_SRX=1
}
include "../../../examples/hgx-b200/hardware.dsl"
profile p : hgx-b200 {
  reserve os 4 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
  }
}
nodes n[1-3] : p
