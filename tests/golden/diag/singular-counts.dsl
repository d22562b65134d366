# Counts of one read as one: an enum value a keyword does not take, a
# redundancy one node cannot give, svc_rf on one node
daos 2.6
cluster tier0 {
  provider "ofi+tcp"
  access_points n1
}
include "../../../examples/hgx-b200/hardware.dsl"
profile p : hgx-b200 {
  engine numa 0 { targets 8  scm ram 16GiB  nvme roles [wal meta data] }
}
node n1 : p
pool tier0 { size 90% svc_rf 1 }
pool p2 { size 10% }
container c in tier0 {
  type posix
  tolerate 1 node failures
  files huge
  checksum crc32 server
}
container c2 in p2 {
  type posix
  tolerate 1 node failures
  checksum crc32 server
}
