# warning: 100 containers in one pool (tens, not thousands)
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  reserve os 4 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
}
nodes gpu[001-014] : converged
pool tier0 { size 90% }
container c001 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c002 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c003 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c004 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c005 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c006 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c007 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c008 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c009 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c010 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c011 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c012 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c013 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c014 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c015 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c016 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c017 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c018 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c019 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c020 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c021 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c022 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c023 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c024 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c025 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c026 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c027 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c028 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c029 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c030 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c031 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c032 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c033 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c034 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c035 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c036 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c037 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c038 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c039 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c040 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c041 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c042 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c043 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c044 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c045 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c046 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c047 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c048 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c049 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c050 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c051 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c052 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c053 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c054 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c055 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c056 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c057 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c058 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c059 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c060 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c061 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c062 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c063 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c064 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c065 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c066 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c067 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c068 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c069 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c070 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c071 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c072 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c073 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c074 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c075 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c076 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c077 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c078 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c079 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c080 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c081 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c082 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c083 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c084 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c085 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c086 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c087 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c088 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c089 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c090 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c091 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c092 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c093 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c094 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c095 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c096 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c097 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c098 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c099 in tier0 { tolerate 2 node failures  checksum crc32 server }
container c100 in tier0 { tolerate 2 node failures  checksum crc32 server }
