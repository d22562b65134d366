# The node type of the reference deployment: 2x AMD EPYC 9V45, 96 cores per
# socket with SMT (Linux numbers the siblings at +192), one NUMA node per
# socket with 768 GiB, a 400G RoCE NIC, four Gen5 NVMe drives and four GPUs each.
#
# hgx-b200.xml is its topology in `lstopo --of xml` form. It is synthetic (an
# hwloc synthetic CPU tree with injected NICs and drives, made by
# tests/topologies/generate.sh), standing in for an export of a real node.
# Every line below is checked against it.

hardware hgx-b200 {
  topology         "hgx-b200.xml"
  sockets          2
  cores_per_socket 96
  threads_per_core 2                      # siblings at +192 (linear numbering)
  memory_per_numa  768GiB
  numa 0 {
    nic  ens1f0np0 pci 0000:1a:00.0 role storage rdma mlx5_0
    nvme 0000:21:00.0 0000:22:00.0 0000:23:00.0 0000:24:00.0
    gpus 4                                # four B200 per socket
  }
  bmc redfish { system 1  vendor ami  apply_time OnReset }   # the talk's BMC: nested body, ETag of /Bios
  numa 1 {
    nic  ens2f0np0 pci 0000:9a:00.0 role storage rdma mlx5_1
    nvme 0000:a1:00.0 0000:a2:00.0 0000:a3:00.0 0000:a4:00.0
    gpus 4
  }
}
