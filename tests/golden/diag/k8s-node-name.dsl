# k8s_node_name: a template that gives two hosts one Kubernetes node, one that
# gives a name Kubernetes refuses, and one on nodes that run DAOS under systemd
daos 2.6
cluster tier0 {
  provider "ofi+verbs;ofi_rxm"; fabric roce { gid_index 3 }
  access_points gpu[001-003]
  kubernetes { image registry.example.com/daos:2.6.3@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef  run_as 1001:1001 }
}
include "../../../examples/hgx-b200/hardware.dsl"
profile converged : hgx-b200 {
  os ubuntu24.04
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
  kubelet { version 1.33  }
}
profile storage : converged { deploy systemd }
nodes gpu[001-006] : converged { k8s_node_name "{host}.k8s.example.com" }
node gpu004 { k8s_node_name gpu002.k8s.example.com }
nodes gpu[007-010] : converged { k8s_node_name "aks_gpu_{i}" }
nodes st[01-04] : storage { k8s_node_name "{host}.k8s.example.com" }
