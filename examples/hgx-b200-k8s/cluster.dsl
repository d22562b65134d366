# The reference deployment in the Kubernetes model: the same 14 converged GPU
# nodes, with daos_server and daos_agent as DaemonSets instead of systemd
# services (SPEC.md, "Deployment models"). Engine cores stay in
# reservedSystemCPUs, but without strict-cpu-reservation: the daos-server pod
# lives in the kubelet's shared pool, so it can reach them and CPU 0.

daos 2.6

cluster tier0 {
  provider             "ofi+verbs;ofi_rxm"
  access_points        gpu[001-003]
  crt_timeout          600s
  swim_suspect_timeout 120s
  log_mask             ERR
  fabric roce { gid_index 5 }
  # dslc: allow k8s-image-tag -- the site registry keeps release tags immutable
  kubernetes {
    image        registry.example.com/daos/daos:2.6.3  # daos_server, daos_server_helper, daos_agent
    run_as       1001:1001                             # the image's daos_server user
    agent_run_as 1002:1002                             # and its daos_agent user
    # the device plugins' upstream releases, mirrored: nodes pull from the site registry
    rdma_plugin_image registry.example.com/mellanox/k8s-rdma-shared-dev-plugin:v1.5.3
    vfio_plugin_image registry.example.com/squat/generic-device-plugin:0.1.0
  }
}

include "../hgx-b200/hardware.dsl"

profile converged : hgx-b200 {
  os azurelinux3
  # dslc: allow k8s-shared-engine-cpus -- training pods are Guaranteed with integer CPUs
  deploy kubernetes
  reserve os 4 cores per numa
  engine per numa {                       # dslc: allow nvme-count-unequal -- gpu007 runs without its failed drive
    cores   20
    targets 16
    helpers 2
    scm     ram 64GiB
    nvme    roles [wal meta data]
  }
  network {
    storage mtu 9000
    mgmt bond active-backup over macvlan mtu 1500
  }
  kernel { iommu pt  irqaffinity os }
  bios { AmdSetup.ACSEnable = Enabled }
  # dslc: allow kubelet-hugepages -- a ResourceQuota keeps other pods off hugepages-2Mi on these nodes
  kubelet {
    version        1.33
    cpu_manager    static
    memory_manager static
    # no topology: dslc writes restricted, or best-effort where restricted would refuse the
    # training pod (GPUs over both sockets while its CPUs and memory fit one); the build says which
  }
}

nodes gpu[001-014] : converged {
  mgmt    10.10.0.{10+i}/24 gateway 10.10.0.1
  storage ens1f0np0 10.20.0.{10+i}/24, ens2f0np0 10.21.0.{10+i}/24
  bmc     10.30.0.{10+i}
}

node gpu007 { exclude nvme 0000:a4:00.0 }

pool tier0 { size 90% svc_rf 2 }
container training in tier0 {
  type posix
  tolerate 2 node failures
  files large
  checksum crc32 server
}
