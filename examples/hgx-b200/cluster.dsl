# The reference deployment: 14 converged GPU nodes that are DAOS servers and
# clients at once, and 4 client-only nodes.
#
# Each node: 2x AMD EPYC 9V45 (96 cores per socket, SMT siblings at +192),
# NUMA 0 = CPUs 0-95,192-287 and NUMA 1 = CPUs 96-191,288-383; per NUMA node
# one 400G RoCE NIC and four Gen5 NVMe drives. One engine per NUMA node,
# 16 targets + 2 helpers (20 cores), 4 OS cores at the start of each NUMA
# node: OS cores 0-3 and 96-99, engine cores 4-23 and 100-119.
#
# The GPU nodes are DAOS clients too: they mount the training container with
# dfuse and train with NCCL on a separate fabric, kept off the two storage
# NICs. Four client-only nodes of the same type run analysis jobs.

daos 2.6

cluster tier0 {
  provider             "ofi+verbs;ofi_rxm"
  access_points        gpu[001-003]       # odd count, nodes of the cluster
  crt_timeout          600s
  swim_suspect_timeout 120s
  log_mask             ERR
  fabric roce {
    gid_index 5                           # FI_VERBS_GID_IDX=5 for engines and clients
    lossless { priority 3  dscp 26 }      # the talk's PFC lane for RDMA, with ECN
  }
}

include "hardware.dsl"                    # the node type, shared with tests

profile converged : hgx-b200 {
  os azurelinux3
  reserve os 4 cores per numa             # dslc: allow numa-pin-dropped -- housekeeping + kubelet at the NUMA edge, by design
  engine per numa {                       # dslc: allow nvme-count-unequal -- gpu007 runs without its failed drive
    cores   20                            # 2 + targets + helpers
    targets 16
    helpers 2
    scm     ram 64GiB                     # pinned scm_size (MD-on-SSD)
    nvme    roles [wal meta data]
  }
  network {
    storage mtu 9000                      # each RoCE NIC keeps its own IP and GID
    mgmt bond active-backup over macvlan mtu 1500
  }
  kernel { iommu pt  irqaffinity os }     # interrupts on the OS cores
  bios { AmdSetup.ACSEnable = Enabled }   # real ACS, instead of pcie_acs_override
  # dslc: allow kubelet-hugepages -- a ResourceQuota keeps pods off hugepages-2Mi on these nodes
  kubelet {
    version        1.33                   # strict-cpu-reservation is beta from 1.33
    cpu_manager    static                 # OS and engine CPUs in reservedSystemCPUs
    topology       restricted             # aligns; refuses Guaranteed pods whose GPUs span sockets
    memory_manager static                 # reservedMemory per NUMA node, DAOS counted
  }
  nccl on                                 # NCCL_IB_HCA=^=mlx5_0,mlx5_1 in etc/nccl.conf
}

profile client : hgx-b200 {               # no engine: daos_agent.yml only
  os azurelinux3
  network {
    storage mtu 9000                      # the agent uses each NUMA node's own NIC
    mgmt bond active-backup over macvlan mtu 1500
  }
}

nodes gpu[001-014] : converged {
  mgmt    10.10.0.{10+i}/24 gateway 10.10.0.1
  storage ens1f0np0 10.20.0.{10+i}/24, ens2f0np0 10.21.0.{10+i}/24
  bmc     10.30.0.{10+i}
}

node gpu007 { exclude nvme 0000:a4:00.0 }  # one node differs: a failed drive

nodes cn[01-04] : client {               # the servers' subnets: one hop to every engine
  mgmt    10.10.0.{100+i}/24 gateway 10.10.0.1
  storage ens1f0np0 10.20.0.{100+i}/24, ens2f0np0 10.21.0.{100+i}/24
}

pool tier0 { size 90% svc_rf 2 }
container training in tier0 {
  type posix
  tolerate 2 node failures
  files large
  checksum crc32 server
}

mount /mnt/daos/training {                # one dfuse for every user of the GPU nodes
  container training in tier0
  on gpu[001-014]
  user dserve                             # a dedicated account (multi-user-dfuse.md)
  multi_user true
  caching off                             # read-write from 18 nodes: --disable-caching
}
mount /mnt/daos/training {                # the same container on the client nodes,
  container training in tier0             # with the interception library for shells
  on cn[01-04]
  user dserve
  multi_user true
  caching off
  intercept pil4dfs
}
