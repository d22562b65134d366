# The storage node type of an Aurora-like system (HPE, two engines per
# node): 2x Intel Xeon Gold 5320 (26 cores per socket, SMT siblings at
# +52), one NUMA node per socket with 256 GiB of DDR4, one HPE Slingshot 11
# NIC per socket (cxi provider), 8 x 512 GB Optane PMem 200 per socket
# interleaved into one App Direct region and namespace (/dev/pmem0 on
# socket 0, /dev/pmem1 on socket 1), and 8 NVMe drives per socket behind
# two Intel VMD domains (DAOS names the domains; SPDK finds the drives
# behind them).
#
# The CPUs, NICs, VMD domains and PMem namespaces are those of a real DAOS
# test node of that kind (DAOS's src/control/lib/hardware/hwloc/testdata/
# tds-0002.xml); tests/examples_storage.sh checks this description against
# that export when ../shared/reference has it.

hardware coyote {
  sockets          2
  cores_per_socket 26
  threads_per_core 2                      # siblings at +52 (linear numbering)
  memory_per_numa  256GiB
  numa 0 {
    nic  hsn0 pci 0000:0a:00.0 role storage rdma cxi0   # Cassini device: the ofi+cxi domain
    nic  ens259f0 pci 0000:04:00.0 role mgmt
    nvme 0000:7c:00.5 0000:7d:00.5        # VMD domains: 8 drives behind them
    pmem pmem0                            # 8 x 512 GB, interleaved
  }
  numa 1 {
    nic  hsn1 pci 0000:83:00.0 role storage rdma cxi1
    nvme 0000:81:00.5 0000:fa:00.5
    pmem pmem1
  }
  bmc redfish { system 1  dialect flat  apply_time OnReset }
}
