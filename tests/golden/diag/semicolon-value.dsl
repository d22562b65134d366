# An unquoted provider with its ';': the lexer ends the word there and the
# statement with it, so 'ofi_rxm' reads as a keyword of its own. The cause
# is said and the quoted value proposed (and applied by --fix).
daos 2.6
cluster tier0 {
  provider ofi+verbs;ofi_rxm
  access_points n1
  fabric roce { gid_index 5 }
}
include "../../../examples/hgx-b200/hardware.dsl"
profile p : hgx-b200 {
  engine numa 0 { targets 8  scm ram 16GiB  nvme roles [wal meta data] }
}
node n1 : p
