#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Checks generated KubeletConfiguration drop-ins without a kubelet (none is
packaged for Debian 12): YAML syntax, every field name against
../shared/reference/kubelet/kubelet-config-v1beta1-fields.txt (skipped when
absent), and the cross-field rules of ../shared/facts/node-artifacts.md 4.3,
written here independently of dslc. Optionally compares reservedSystemCPUs.

usage: kubelet_check.py FILE... [--cpus CPULIST]   (exit 1 on any error)
"""
import os
import re
import sys

import yaml

FIELDS = "../shared/reference/kubelet/kubelet-config-v1beta1-fields.txt"
UNITS = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "": 1}


def quantity(q):
    m = re.fullmatch(r"(\d+)(Ki|Mi|Gi|Ti)?", str(q))
    if not m:
        raise ValueError(f"not a binary quantity: {q!r}")
    return int(m.group(1)) * UNITS[m.group(2) or ""]


def cpuset(s):
    cpus = set()
    for part in str(s).split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise ValueError(f"not a cpuset: {s!r}")
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if b < a:
            raise ValueError(f"descending range in {s!r}")
        cpus.update(range(a, b + 1))
    return cpus


def check(path, want_cpus):
    errors = []
    cfg = yaml.safe_load(open(path))
    if cfg.get("apiVersion") != "kubelet.config.k8s.io/v1beta1" or cfg.get("kind") != "KubeletConfiguration":
        errors.append("apiVersion/kind")
    if os.path.exists(FIELDS):
        top = {l.strip() for l in open(FIELDS) if l.strip() and not l.startswith("#") and "." not in l and "[" not in l}
        for k in cfg:
            if k not in top:
                errors.append(f"unknown field {k!r} (the kubelet would drop it with lenient decoding)")
        for entry in cfg.get("reservedMemory", []):
            for k in entry:
                if f"reservedMemory[].{k}" not in open(FIELDS).read():
                    errors.append(f"unknown field reservedMemory[].{k}")
    else:
        print(f"kubelet_check: {FIELDS} is absent; field names not checked")
    if cfg.get("topologyManagerPolicy", "none") not in ("none", "best-effort", "restricted", "single-numa-node"):
        errors.append("topologyManagerPolicy")
    cpus = cpuset(cfg["reservedSystemCPUs"]) if cfg.get("reservedSystemCPUs") else set()
    if cfg.get("cpuManagerPolicy") == "static" and not cpus:
        errors.append("static CPU manager without a CPU reservation")
    if want_cpus is not None and cpus != cpuset(want_cpus):
        errors.append(f"reservedSystemCPUs {cfg.get('reservedSystemCPUs')} != {want_cpus}")
    for k, v in (cfg.get("cpuManagerPolicyOptions") or {}).items():
        if not isinstance(v, str) or v not in ("true", "false"):
            errors.append(f"cpuManagerPolicyOptions {k} must be the string true or false")
    if cfg.get("memoryManagerPolicy") == "Static":
        seen = set()
        total = 0
        for entry in cfg.get("reservedMemory", []):
            numa = entry["numaNode"]
            for typ, q in entry["limits"].items():
                if typ != "memory" and not typ.startswith("hugepages-"):
                    errors.append(f"reservedMemory type {typ}")
                if (numa, typ) in seen:
                    errors.append(f"duplicate reservedMemory {numa}/{typ}")
                seen.add((numa, typ))
                if quantity(q) == 0:
                    errors.append("zero reservedMemory")
                if typ == "memory":
                    total += quantity(q)
        evict = cfg.get("evictionHard", {"memory.available": "100Mi"}).get("memory.available", "0")
        want = quantity(cfg.get("systemReserved", {}).get("memory", 0)) + quantity(cfg.get("kubeReserved", {}).get("memory", 0)) + quantity(evict)
        if total != want:
            errors.append(f"reservedMemory sums to {total}, node allocatable reservation is {want}")
    return errors


def main(argv):
    want = None
    if "--cpus" in argv:
        i = argv.index("--cpus")
        want = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    n = 0
    for path in argv:
        for e in check(path, want):
            print(f"{path}: {e}")
            n += 1
    print(f"kubelet_check: {len(argv)} files, {n} errors")
    return 1 if n or not argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
