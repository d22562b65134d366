# An Aurora-like DAOS system: 128 storage nodes (the real one has 1,024) on
# HPE Slingshot, two engines per node with their metadata in Optane PMem
# (class dcpm) and their data on NVMe, and 32 client nodes (UANs and
# gateway nodes that mount the project container with dfuse).
#
# Each engine: 16 targets + 4 helpers on 22 cores of its socket
# (pinned_numa_node), 2 OS cores at the socket's end; its SCM is its socket's PMem namespace, its fabric the socket's
# Slingshot NIC (ofi+cxi).

daos 2.6

cluster aurora {
  provider      "ofi+cxi"
  fabric        slingshot
  access_points daos[0001,0033,0065,0097,0125]   # 5 replicas in 5 racks
  crt_timeout   120s
  log_mask      ERR
  client_env    FI_MR_CACHE_MONITOR=kdreg2    # memory registration cache: the tutorials' fix for silent corruption
}

include "hardware.dsl"

profile storage : coyote {
  os rhel9
  reserve os 2 cores per numa at end      # engines start at their socket's first core
  engine per numa {
    targets 16
    helpers 4
    scm     pmem                          # /dev/pmem<socket>: class dcpm
  }
  network { storage mtu 9000 }            # each Slingshot NIC keeps its own IP
  kernel { iommu pt }
  bios { ProcSmt = Enabled }              # PMem App Direct comes from `daos_server scm prepare`
}

profile client : coyote {                 # daos_agent.yml only
  os rhel9
  network { storage mtu 9000 }
}

# The management Ethernet (ens259f0) is the site image's: dslc configures
# the Slingshot NICs the engines and agents use.
nodes daos[0001-0128] : storage {
  storage hsn0 10.150.0.{1+i}/16, hsn1 10.151.0.{1+i}/16
  bmc     10.141.0.{1+i}                    # from .1: .0 is a /24's network address
}

nodes uan[001-032] : client {
  storage hsn0 10.150.1.{i}/16, hsn1 10.151.1.{i}/16
}

pool projects {
  size   90%
  svc_rf 3                                     # 7 pool service replicas
  acl    "A::OWNER@:rwcdt" "A:G:GROUP@:rwcdt"  # the admins
  acl    "A:G:aurora-users@:rw"                # everyone with an allocation
  acl    "A::EVERYONE@:r"
}
container datasets in projects {
  type     posix
  tolerate 2 node failures                # EC_16P2GX over 128 fault domains
  files    large
  checksum crc32 server
  acl      "A::OWNER@:rwdtTaAo" "A:G:aurora-users@:r"  # users read, the owner curates
  attr     "description=curated training datasets" "contact=storage-admins@example.org"
}
container checkpoints in projects {
  type posix
  tolerate 2 node failures
  files mixed                             # many small files beside big ones
  checksum crc32 server
  directory /restart oclass EC_16P2GX chunk 8MiB  # full restarts: wide EC, whole stripes
}

mount /mnt/daos/datasets {
  container datasets in projects
  on uan[001-032]
  user daos_user
  multi_user true
  caching off                             # read-write on 32 nodes: --disable-caching
}

# MPI-IO and HDF5 jobs (the Aurora tutorials), per job, not globally:
#   mpiexec -n 512 with-daos-io ./app
mount /mnt/daos/checkpoints {
  container checkpoints in projects
  on uan[001-032]
  user daos_user
  multi_user true
  caching off
  mpiio {
    romio_cb_write       enable           # collective buffering of shared-file writes
    romio_cb_read        enable
    romio_daos_obj_class EC_16P2GX        # the files ROMIO's DAOS driver creates
  }
  hdf5_vol "/usr/lib64/mpich/lib"         # where hdf5-vol-daos-mpich puts libhdf5_vol_daos.so
}
