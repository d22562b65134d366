#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Writes openapi-v1.NN.json: the definitions of Kubernetes' OpenAPI v2 spec
(api/openapi-spec/swagger.json of kubernetes/kubernetes release-1.NN, as
vendored in kubernetes-client/python kubernetes/swagger.json.unprocessed) that DaemonSet,
ConfigMap, Namespace, PodTemplate, PodDisruptionBudget, Role, RoleBinding,
ClusterRole, ClusterRoleBinding, ServiceAccount, ResourceQuota and (1.34)
ResourceClaimTemplate reach,
without descriptions. Data, not code: the
tests validate dslc's objects against it (k8s_check.py).

usage: extract.py CLIENT_PYTHON_GIT_DIR   (github:kubernetes-client/python)
"""
import json
import subprocess
import sys

# kubernetes-client/python commits whose scripts/constants.py says
# KUBERNETES_BRANCH = "release-1.NN" and that regenerated kubernetes/swagger.json.unprocessed
COMMITS = {"1.30": "2aa427de8", "1.33": "1cc7ca51b", "1.34": "4f585b3b8"}
ROOTS = ["io.k8s.api.apps.v1.DaemonSet", "io.k8s.api.core.v1.ConfigMap", "io.k8s.api.core.v1.Namespace",
         "io.k8s.api.core.v1.PodTemplate", "io.k8s.api.policy.v1.PodDisruptionBudget", "io.k8s.api.rbac.v1.ClusterRole",
         "io.k8s.api.rbac.v1.Role", "io.k8s.api.rbac.v1.RoleBinding", "io.k8s.api.rbac.v1.ClusterRoleBinding",
         "io.k8s.api.core.v1.ServiceAccount", "io.k8s.api.core.v1.ResourceQuota"]
# client_gpu_class's ResourceClaimTemplate: resource.k8s.io/v1 exists from 1.34 only, so the
# older specs stay without it (their validators refuse the kind, as their API servers do)
ROOTS_FROM = {"1.34": ["io.k8s.api.resource.v1.ResourceClaimTemplate"]}


def refs(node, out):
    if isinstance(node, dict):
        r = node.get("$ref")
        if r:
            out.add(r.rsplit("/", 1)[1])
        for v in node.values():
            refs(v, out)
    elif isinstance(node, list):
        for v in node:
            refs(v, out)


def strip(node):
    if isinstance(node, dict):
        return {k: strip(v) for k, v in node.items() if k != "description"}
    if isinstance(node, list):
        return [strip(v) for v in node]
    return node


def main():
    git = sys.argv[1]
    for version, commit in COMMITS.items():
        full = subprocess.run(["git", "-C", git, "rev-parse", commit], capture_output=True, text=True, check=True).stdout.strip()
        spec = json.loads(subprocess.run(["git", "-C", git, "show", f"{commit}:kubernetes/swagger.json.unprocessed"],
                                         capture_output=True, check=True).stdout)
        defs = spec["definitions"]
        roots = ROOTS + ROOTS_FROM.get(version, [])
        keep, todo = set(), list(roots)
        while todo:
            name = todo.pop()
            if name in keep:
                continue
            keep.add(name)
            found = set()
            refs(defs[name], found)
            todo.extend(found - keep)
        doc = {"source": f"https://github.com/kubernetes-client/python/blob/{full}/kubernetes/swagger.json.unprocessed",
               "kubernetes": version, "roots": roots,
               "definitions": {k: strip(defs[k]) for k in sorted(keep)}}
        with open(f"openapi-v{version}.json", "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")
        print(version, len(keep), "definitions")


main()
