# error: GPUs claimed through DRA (client_gpu_class) with a 1.33 kubelet: resource.k8s.io/v1 is served from 1.34
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
  kubernetes { image registry.example.com/daos:2.6.3@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef  run_as 1001:1001
    rdma_plugin_image registry.example.com/mellanox/k8s-rdma-shared-dev-plugin:v1.5.3@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
    vfio_plugin_image registry.example.com/squat/generic-device-plugin:0.1.0@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
    client_gpus 8  client_cpus 32  client_memory 64GiB
    client_gpu_class gpu.nvidia.com  client_namespace ml-train }
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  os azurelinux3
  # dslc: allow k8s-shared-engine-cpus -- training pods are Guaranteed
  deploy kubernetes
  reserve os 4 cores per numa
  engine per numa {
    targets 16
    helpers 2
    scm ram 64GiB
    nvme roles [wal meta data]
  }
  # dslc: allow kubelet-hugepages -- a ResourceQuota keeps pods off hugepages
  kubelet { version 1.33  topology restricted }
  # the topology manager sees no claimed GPU: restricted admits this pod
}
nodes gpu[001-014] : converged
