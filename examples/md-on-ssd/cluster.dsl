# MD-on-SSD with split tiers on DAOS 2.8: the reference node type
# (../hgx-b200/hardware.dsl) as dedicated storage servers whose engines
# keep the write-ahead log, the metadata and the data on drives of their
# own, and a pool whose memory file is half its metadata (--mem-ratio).
#
# Per engine (NUMA node): 4 Gen5 NVMe drives, 1 for the WAL, 1 for the
# metadata blobs, 2 for data; the RAM SCM holds the memory file of each
# pool's metadata.

daos 2.8

cluster md {
  provider      "ofi+verbs;ofi_rxm"
  access_points st[01-03]
  fabric roce { gid_index 3 }
}

include "../hgx-b200/hardware.dsl"

profile storage : hgx-b200 {
  os rhel9
  reserve os 4 cores per numa             # dslc: allow numa-pin-dropped -- OS cores at the NUMA edge, by design
  engine per numa {                       # dslc: allow nvme-count-unequal -- st04 runs without its failed drive
    cores   20
    targets 16
    helpers 2
    scm     ram 128GiB                    # the memory files of the pools' metadata
    nvme    tier [wal] drives 1           # the first drive of the NUMA node
    nvme    tier [meta] drives 1          # the second
    nvme    tier [data]                   # the other two
  }
  network {
    storage mtu 9000
    link { rx_ring 8192  tx_ring 8192  gro on  lro off }  # the IO500 write-up's NIC adjustments
  }
}

nodes st[01-06] : storage {
  storage ens1f0np0 10.20.1.{10+i}/24, ens2f0np0 10.21.1.{10+i}/24
}

# A drive failed on st04: its data tier is one drive short on NUMA node 1.
node st04 { exclude nvme 0000:a4:00.0 }

pool md {
  size      80%
  svc_rf    2
  mem_ratio 50%                           # the memory file: half the metadata on SSD
  acl       "A::OWNER@:rwcdt" "A:G:GROUP@:rw"
}
container scratch in md {
  type posix
  tolerate 1 node failures
  files mixed
  checksum crc32 server
}
