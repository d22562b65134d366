#!/usr/bin/env python3
"""Issue 69 item 1: the training pod's admission, decided as the kubelet decides it, against
dslc's verdict (k8s-client-topology), its default topologyManagerPolicy and its build summary.

The model is written from Kubernetes' sources (v1.30-v1.34 share this logic), not from dslc:
  pkg/kubelet/cm/topologymanager/bitmask/bitmask.go   IterateBitMasks (by size, then
      lexicographic), IsNarrowerThan (fewer bits, then IsLessThan: the smaller value)
  pkg/kubelet/cm/cpumanager/policy_static.go          GetPodTopologyHints (Guaranteed pods with
      integer CPUs only; otherwise nil), generateCPUTopologyHints (minAffinitySize from every
      CPU of the machine, hints from the CPUs outside reservedSystemCPUs)
  pkg/kubelet/cm/devicemanager/topology_hints.go      GetPodTopologyHints (nil for a resource
      whose devices report no NUMA node, [] when too few), generateDeviceTopologyHints
  pkg/kubelet/cm/memorymanager/policy_static.go       GetPodTopologyHints (Guaranteed only),
      calculateHints (one minAffinitySize for memory and hugepages together; an empty map when
      no mask fits), initializeMachineState (a NUMA node's memory less reservedMemory and the
      huge pages on it)
  pkg/kubelet/cm/topologymanager/policy.go            filterProvidersHints, mergePermutation,
      HintMerger.compare/Merge (BestNonPreferredAffinityCount), iterateAllProviderTopologyHints
  pkg/kubelet/cm/topologymanager/policy_{none,best_effort,restricted,single_numa_node}.go
      (filterSingleNumaHints; restricted and single-numa-node admit a preferred hint only)
  pkg/kubelet/cm/topologymanager/scope_pod.go, scope_container.go (pod scope: the pod's
      summed asks; container scope: each container's; dslc's template has one container)
  pkg/kubelet/cm/container_manager_linux.go          NewContainerManager: AddHintProvider for the
      device, CPU and memory managers only; the DRA manager is none, so GPUs claimed through
      DRA (client_gpu_class: the pod's resourceClaims, no nvidia.com/gpu limit) give no hint
  mm/hugetlb.c (Linux): hugepages=N at boot go round-robin over the NUMA nodes.
The machine is the hardware's topology export (NUMA nodes' CPUs and memory) and its
description's GPUs and NICs per NUMA node; the kubelet settings, the kernel's huge pages and the
pod's limits are read back from the tree dslc wrote.
"""
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples/hgx-b200-k8s/cluster.dsl")
HARDWARE = os.path.join(ROOT, "examples/hgx-b200/hardware.dsl")
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   admit {name}")
    else:
        failed += 1
        print(f"FAIL admit {name}: {str(detail)[:900]}")


# ---- the kubelet ---------------------------------------------------------------------------

def value(mask):
    return sum(1 << n for n in mask)


def narrower(a, b):
    """bitmask.go IsNarrowerThan: fewer NUMA nodes, then IsLessThan."""
    return (len(a), value(a)) < (len(b), value(b))


def iterate_bitmasks(nodes):
    for size in range(1, len(nodes) + 1):
        for combo in itertools.combinations(nodes, size):
            yield frozenset(combo)


def generate_hints(nodes, total, avail, request):
    """generateCPUTopologyHints / generateDeviceTopologyHints: every mask whose free share holds
    the request, preferred at the narrowest size the machine's total could hold it in."""
    min_size, hints = len(nodes), []
    for mask in iterate_bitmasks(nodes):
        if sum(total[n] for n in mask) >= request and len(mask) < min_size:
            min_size = len(mask)
        if sum(avail[n] for n in mask) >= request:
            hints.append(mask)
    return [(m, len(m) == min_size) for m in hints]


def cpu_provider(machine, kubelet, pod):
    """A map resource -> hints, or None (the provider has no preference)."""
    if kubelet["cpuManagerPolicy"] != "static" or not pod["guaranteed"] or not pod["cpu"]:
        return None
    total = {n: len(c) for n, c in machine["cpus"].items()}
    avail = {n: len(c - kubelet["reserved"]) for n, c in machine["cpus"].items()}
    if sum(avail.values()) < pod["cpu"]:
        return {"cpu": []}
    return {"cpu": generate_hints(machine["nodes"], total, avail, pod["cpu"])}


def device_provider(machine, pod):
    out = {}
    for res, want in pod["devices"].items():
        per = machine["devices"].get(res)
        if per is None:  # no device reports a NUMA node: deviceHasTopologyAlignment false
            out[res] = None
        elif sum(per.values()) < want:
            out[res] = []
        else:
            out[res] = generate_hints(machine["nodes"], per, per, want)
    return out


def memory_provider(machine, kubelet, pod):
    if kubelet["memoryManagerPolicy"] != "Static" or not pod["guaranteed"]:
        return None
    req = {"memory": pod["memory"]}
    if pod["hugepages"]:
        req["hugepages-2Mi"] = pod["hugepages"]
    alloc = {}
    for n in machine["nodes"]:
        hp = machine["hugepages_2m"][n] * 2 * 2**20
        alloc[n] = {"memory": machine["memory"][n] - kubelet["reservedMemory"].get(n, 0) - hp, "hugepages-2Mi": hp}
    min_size, fits = len(machine["nodes"]), []
    for mask in iterate_bitmasks(machine["nodes"]):
        if any(sum(alloc[n][r] for n in mask) < want for r, want in req.items()):
            continue
        min_size = min(min_size, len(mask))
        fits.append(mask)  # an empty node: free is allocatable
    return {r: [(m, len(m) == min_size) for m in fits] for r in req} if fits else {}


def filter_providers_hints(providers):
    out = []
    for hints in providers:
        if not hints:
            out.append([(None, True)])
            continue
        for res in sorted(hints):
            if hints[res] is None:
                out.append([(None, True)])
            elif not hints[res]:
                out.append([(None, False)])
            else:
                out.append(hints[res])
    return out


def merge_permutation(default, perm):
    preferred, masks = True, []
    for mask, pref in perm:
        if mask is not None:
            masks.append(mask)
            if mask != masks[0]:
                preferred = False
        if not pref:
            preferred = False
    merged = default
    for m in masks:
        merged = merged & m
    return (merged, preferred)


def merge(nodes, lists):
    """HintMerger.Merge with compare(), NUMA distance off (no prefer-closest-numa-nodes)."""
    default = frozenset(nodes)
    best_np = 0
    for hints in lists:
        masks = [m for m, _ in hints if m is not None]
        if masks:
            best_np = max(best_np, min(len(m) for m in masks))

    def fitter(cur, cand):
        if cand[0] == cur[0]:
            return cur
        return cand if narrower(cand[0], cur[0]) else cur

    def compare(cur, cand):
        if not cand[0]:
            return cur
        if cur is None:
            return cand
        if not cur[1] and cand[1]:
            return cand
        if cur[1] and not cand[1]:
            return cur
        if cur[1] and cand[1]:
            return fitter(cur, cand)
        cc, nc = len(cur[0]), len(cand[0])
        if cc > best_np:
            return fitter(cur, cand)
        if cc == best_np:
            return fitter(cur, cand) if nc == best_np else cur
        if nc > best_np:
            return cur
        if nc == best_np:
            return cand
        if nc > cc:
            return cand
        if nc < cc:
            return cur
        return fitter(cur, cand)

    best = None
    for perm in itertools.product(*lists):
        best = compare(best, merge_permutation(default, perm))
    return best if best is not None else (default, False)


def provider_lists(machine, kubelet, pod):
    return filter_providers_hints([device_provider(machine, pod), cpu_provider(machine, kubelet, pod),
                                   memory_provider(machine, kubelet, pod)])


def admit(machine, kubelet, pod, policy):
    """(admitted, merged mask, preferred) for the pod under a policy, pod scope."""
    lists = provider_lists(machine, kubelet, pod)
    if policy == "none":
        return True, None, False
    if policy == "single-numa-node":
        lists = [[h for h in hints if h[1] and (h[0] is None or len(h[0]) == 1)] for hints in lists]
    mask, pref = merge(machine["nodes"], lists)
    if policy == "single-numa-node" and mask == frozenset(machine["nodes"]):
        mask = None
    return (True if policy == "best-effort" else pref), mask, pref


# ---- the machine, the kubelet settings and the pod, from the description and the tree -------

def machine_of(xml_path, hardware_text, rdma_numa, plugin_config):
    nodes, cpus, memory = [], {}, {}
    for obj in ET.parse(xml_path).iter("object"):
        if obj.get("type") == "NUMANode":
            n = int(obj.get("os_index"))
            nodes.append(n)
            memory[n] = int(obj.get("local_memory"))
            cpus[n] = cpuset(obj.get("cpuset"))
    gpus, nics = {n: 0 for n in nodes}, {}
    for m in re.finditer(r"numa (\d+) \{(.*?)\n  \}", hardware_text, re.S):
        g = re.search(r"gpus (\d+)", m.group(2))
        gpus[int(m.group(1))] = int(g.group(1)) if g else 0
        for nic in re.findall(r"nic\s+(\S+)", m.group(2)):
            nics[nic] = int(m.group(1))
    devices = {"nvidia.com/gpu": gpus}  # the NVIDIA device plugin reports each GPU's NUMA node
    for res in plugin_config:
        per = {n: 0 for n in nodes}
        for ifname in res["selectors"].get("ifNames", []):
            per[nics[ifname]] += res["rdmaHcaMax"]
        devices[res["resourcePrefix"] + "/" + res["resourceName"]] = per if rdma_numa else None
    return {"nodes": sorted(nodes), "cpus": cpus, "memory": memory, "devices": devices}


def cpuset(text):
    """hwloc's cpuset string: 32-bit words, most significant first, empty words zero."""
    words = text.split(",")
    bits = set()
    for i, w in enumerate(reversed(words)):
        v = int(w, 16) if w else 0
        for b in range(32):
            if v >> b & 1:
                bits.add(i * 32 + b)
    return bits


def cpulist(text):
    out = set()
    for part in str(text).split(","):
        a, _, b = part.partition("-")
        out |= set(range(int(a), int(b or a) + 1))
    return out


def quantity(q):
    q = str(q)
    for suf, mul in (("Ki", 2**10), ("Mi", 2**20), ("Gi", 2**30), ("Ti", 2**40)):
        if q.endswith(suf):
            return int(q[:-2]) * mul
    return int(q)


def tree_facts(out, node):
    import yaml  # PyYAML reads what libyaml wrote
    conf_dir = os.path.join(out, "nodes", node, "etc/kubernetes/kubelet.conf.d")
    k = yaml.safe_load(open(os.path.join(conf_dir, os.listdir(conf_dir)[0])))
    kubelet = {"cpuManagerPolicy": k["cpuManagerPolicy"], "reserved": cpulist(k["reservedSystemCPUs"]),
               "memoryManagerPolicy": k["memoryManagerPolicy"], "topologyManagerPolicy": k["topologyManagerPolicy"],
               "scope": k.get("topologyManagerScope"),
               "reservedMemory": {r["numaNode"]: quantity(r["limits"]["memory"]) for r in k.get("reservedMemory", [])}}
    grub = open(os.path.join(out, "nodes", node, "etc/default/grub.d/60-dslc.cfg")).read()
    hp = re.search(r"hugepagesz=2M hugepages=(\d+)", grub)
    kube = os.path.join(out, "cluster/kubernetes")
    templates = [d for f in sorted(os.listdir(kube)) if f.startswith("daos-client-")
                 for d in yaml.safe_load_all(open(os.path.join(kube, f))) if d and d["kind"] == "PodTemplate"]
    plugins = [d for d in yaml.safe_load_all(open(os.path.join(kube, "device-plugins.yaml")))
               if d and d["kind"] == "ConfigMap" and d["metadata"]["name"] == "dslc-rdma-devices"]
    config = json.loads(plugins[0]["data"]["config.json"])["configList"] if plugins else []
    return kubelet, int(hp.group(1)) if hp else 0, templates, config


def pod_of(template):
    cs = template["template"]["spec"]["containers"]
    lim = cs[0]["resources"].get("limits", {})
    req = cs[0]["resources"].get("requests", {})
    # pkg/apis/core/v1/helper/qos GetPodQOS: cpu and memory limits set, requests equal (or absent)
    guaranteed = "cpu" in lim and "memory" in lim and all(req.get(r, lim[r]) == lim[r] for r in ("cpu", "memory"))
    cpu = int(lim["cpu"]) if guaranteed and str(lim.get("cpu", "")).isdigit() else 0
    return {"containers": len(cs), "guaranteed": guaranteed, "cpu": cpu,
            "memory": quantity(lim["memory"]) if "memory" in lim else 0,
            "hugepages": quantity(lim["hugepages-2Mi"]) if "hugepages-2Mi" in lim else 0,
            "devices": {r: int(v) for r, v in lim.items() if "/" in r}}


# ---- the variants ---------------------------------------------------------------------------

SHAPES = {
    "gpus": [None, 1, 2, 4, 5, 8],
    "cpus": [None, 4, 32, 96, 150, 200],
    "memory": [None, "64GiB", "600GiB", "900GiB"],
    "hugepages": [None, "4GiB"],
    "topology": [None, "none", "best-effort", "restricted", "single-numa-node"],
    "cpu_manager": [None, "none"],
    "memory_manager": [None, "none"],
    "rdma_numa": [False, True],
    "layout": [(4, 4), (8, 0), (2, 6)],
    "gpu_api": [None, "dra"],  # dra: client_gpu_class gpu.nvidia.com, on Kubernetes 1.34
}


def variant_text(v, topology):
    text = open(EXAMPLE).read()
    asks = [f"client_{k} {v[k]}" for k in ("gpus", "cpus", "memory", "hugepages") if v[k] is not None]
    if v["hugepages"] and not (v["cpus"] or v["memory"]):
        asks = [a for a in asks if not a.startswith("client_hugepages")]  # "HugePages require cpu or memory"
    if v["rdma_numa"]:
        asks.append("rdma_resource rdma/daos numa")
    dra = v.get("gpu_api") == "dra" and v["gpus"]
    if dra:
        asks.append("client_gpu_class gpu.nvidia.com  client_namespace ml-train")
    anchor = "agent_run_as 1002:1002"
    assert anchor in text
    text = text.replace(anchor, anchor + ("\n    " + "  ".join(asks) if asks else ""), 1)
    kubelet = re.search(r"  kubelet \{\n(.*?)\n  \}", text, re.S)
    assert kubelet, "the example's kubelet block"
    lines = [ln for ln in kubelet.group(1).split("\n") if not re.match(r"\s*(topology|cpu_manager|memory_manager)\s", ln)]
    if topology:
        lines.append(f"    topology {topology}")
    if v["cpu_manager"]:
        lines.append(f"    cpu_manager {v['cpu_manager']}")
    if v["memory_manager"]:
        lines.append(f"    memory_manager {v['memory_manager']}")
    if dra:
        assert any(re.match(r"\s*version +1\.33$", ln) for ln in lines), "the example's kubelet version"
        lines = [re.sub(r"version( +)1\.33$", r"version\g<1>1.34", ln) for ln in lines]
    text = text.replace(kubelet.group(0), "  kubelet {\n" + "\n".join(lines) + "\n  }")
    return text


def hardware_text(layout, tmp):
    text = open(HARDWARE).read()
    parts = text.split("gpus 4")
    assert len(parts) == 3, "the hardware's two `gpus 4` lines"
    text = parts[0] + f"gpus {layout[0]}" + parts[1] + f"gpus {layout[1]}" + parts[2]
    text = text.replace('topology         "hgx-b200.xml"', f'topology         "{os.path.join(ROOT, "examples/hgx-b200/hgx-b200.xml")}"')
    path = os.path.join(tmp, f"hw-{layout[0]}-{layout[1]}.dsl")
    open(path, "w").write(text)
    return path, text


def lint(dslc, path):
    r = subprocess.run([dslc, "lint", "--format", "json", path], capture_output=True, text=True)
    try:
        return json.loads(r.stdout)["findings"]
    except (ValueError, KeyError):
        return None


def run_variant(dslc, tmp, v, i, stats):
    hw_path, hw_text = hardware_text(v["layout"], tmp)
    base = variant_text(v, None).replace('include "../hgx-b200/hardware.dsl"', f'include "{hw_path}"')
    src = os.path.join(tmp, f"v{i}-default.dsl")
    open(src, "w").write(base)
    out = os.path.join(tmp, f"out{i}")
    b = subprocess.run([dslc, "build", src, "-o", out], capture_output=True, text=True)
    name = f"#{i} {json.dumps({k: v[k] for k in v if v[k] not in (None, False)})}"
    if b.returncode != 0:
        # the default build may fail only on findings that are not about admission
        fs = lint(dslc, src) or []
        errs = sorted({f["ruleId"] for f in fs if f["severity"] == "error"})
        check(f"{name}: the default build's errors are not k8s-client-topology", errs and "k8s-client-topology" not in errs,
              (errs, b.stderr[-400:]))
        stats["unbuilt"] += 1
        return
    kubelet, pages, templates, config = tree_facts(out, "gpu001")
    machine = machine_of(os.path.join(ROOT, "examples/hgx-b200/hgx-b200.xml"), hw_text, v["rdma_numa"], config)
    machine["hugepages_2m"] = {n: pages // len(machine["nodes"]) + (k < pages % len(machine["nodes"]))
                               for k, n in enumerate(machine["nodes"])}
    tpl = next(t for t in templates if t["template"]["spec"]["nodeSelector"].get("dslc.io/daos-client"))
    pod = pod_of(tpl)
    if pod["containers"] != 1:
        check(f"{name}: the template has one container (pod and container scope agree)", False, pod)
        return
    # the default: restricted where restricted admits, else best-effort, which always admits
    restricted = admit(machine, kubelet, pod, "restricted")[0]
    want = "restricted" if restricted else "best-effort"
    got = kubelet["topologyManagerPolicy"]
    ok_default = got == want and kubelet["scope"] == "pod"
    stats["default " + got] += 1
    if v.get("gpu_api") == "dra" and v["gpus"]:
        stats["dra default " + got] += 1
        # the pod still gets its CPUs and memory pinned, its GPUs anywhere: the summary says so
        check(f"{name}: the summary says the claimed GPUs are aligned to no NUMA node",
              "dslc: nodes gpu[001-014]: the training pod's GPUs, claimed through DRA (gpu.nvidia.com), are aligned "
              "to no NUMA node" in b.stderr, b.stderr[-500:])
    # the summary line: what the model's merged hint is
    adm, mask, pref = admit(machine, kubelet, pod, got)
    line = next((ln for ln in b.stderr.splitlines() if ln.startswith("dslc: nodes gpu[001-014]: training pod")), "")
    # said where some manager has a NUMA preference for the pod (else there is nothing to align)
    if got != "none" and any(h != [(None, True)] for h in provider_lists(machine, kubelet, pod)):
        numa = ",".join(str(n) for n in sorted(mask)) if mask else None
        said = (f"aligned to NUMA node{'s' if len(mask) > 1 else ''} {numa}" in line) if pref and mask else \
            ("not aligned" in line and (numa is None or f"NUMA affinity {numa}" in line))
        summary_ok = (not adm and not line) or said
    else:
        summary_ok = not line
    check(f"{name}: default topology {got} (the model: {want}), summary {line[line.find('under'):][:90]!r}",
          ok_default and summary_ok, (kubelet, pod, mask, pref, line))
    # each policy written out: dslc's k8s-client-topology against the model's refusal
    for policy in ("none", "best-effort", "restricted", "single-numa-node"):
        if v["topology"] != policy:
            continue
        text = variant_text(v, policy).replace('include "../hgx-b200/hardware.dsl"', f'include "{hw_path}"')
        p = os.path.join(tmp, f"v{i}-{policy}.dsl")
        open(p, "w").write(text)
        fs = lint(dslc, p)
        if fs is None:
            check(f"{name} {policy}: lint --format json", False)
            continue
        topo = [f for f in fs if f["ruleId"] == "k8s-client-topology"]
        fit = [f for f in fs if f["ruleId"] == "k8s-client-fit"]
        refused = not admit(machine, kubelet, pod, policy)[0]
        stats[f"{policy} {'refused' if refused else 'admitted'}"] += 1
        if fit:
            continue  # more than the node has: it never schedules, admission is moot
        check(f"{name} under {policy}: the model {'refuses' if refused else 'admits'}, dslc {'reports' if topo else 'is quiet'}",
              bool(topo) == refused, [(f["ruleId"], f["message"][:200]) for f in fs if f["severity"] == "error"])
        helped = re.search(r"write `topology (\S+)`", topo[0].get("help") or "") if topo else None
        if topo:
            # the help names the policy dslc would write: restricted where that admits the pod
            check(f"{name}: the help proposes {want}, the policy dslc writes for this pod",
                  helped and helped.group(1) == want, topo[0].get("help"))
        if helped:
            stats["help applied"] += 1
            fixed = text.replace(f"    topology {policy}", f"    topology {helped.group(1)}")
            p2 = os.path.join(tmp, f"v{i}-help.dsl")
            open(p2, "w").write(fixed)
            fs2 = lint(dslc, p2) or [{"ruleId": "?"}]
            check(f"{name}: the help's `topology {helped.group(1)}` applied: no k8s-client-topology, and the model admits",
                  not [f for f in fs2 if f["ruleId"] == "k8s-client-topology"] and
                  admit(machine, kubelet, pod, helped.group(1))[0], fs2)


def pinned_cases():
    """The issue's case and its neighbours, always run: SPEC's client block on 4+4 GPUs."""
    spec = {"gpus": 8, "cpus": 32, "memory": "64GiB", "hugepages": "4GiB", "cpu_manager": None, "memory_manager": None,
            "rdma_numa": False, "layout": (4, 4)}
    yield dict(spec, topology="restricted")                      # refused: TopologyAffinityError
    yield dict(spec, topology=None)                              # the default: best-effort
    yield dict(spec, topology="restricted", cpus=None, memory=None, hugepages=None)  # BestEffort pod: admitted
    yield dict(spec, topology="restricted", gpus=4)              # one socket's GPUs: aligned to one node
    yield dict(spec, topology="restricted", cpus=200, memory="900GiB")  # every manager prefers 0,1
    yield dict(spec, topology="single-numa-node", gpus=4)
    yield dict(spec, topology="single-numa-node")                # 8 GPUs: no node has them
    yield dict(spec, topology="best-effort")                     # admitted, affinity 0-1
    yield dict(spec, topology="restricted", gpus=1, rdma_numa=True)     # one NIC per socket: refused
    yield dict(spec, topology="restricted", gpus=None, cpus=None, memory=None, hugepages=None, rdma_numa=True)  # NICs alone
    yield dict(spec, topology="restricted", gpu_api="dra")       # the refused pod's GPUs claimed: no GPU hint, admitted
    yield dict(spec, topology=None, gpu_api="dra")               # so the default is restricted
    yield dict(spec, topology="single-numa-node", gpu_api="dra") # 8 claimed GPUs: no hint, single-numa-node admits
    yield dict(spec, topology="single-numa-node", gpus=None, cpus=200, memory=None, hugepages=None)  # Burstable: no CPU hint


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: kubelet_admit.py DSLC [COUNT]")
    dslc = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 240
    try:
        import yaml  # noqa: F401
    except ImportError:
        print("skip admit: PyYAML is not installed (apt-get install python3-yaml)")
        return 0
    rng = random.Random(69)
    keys = list(SHAPES)
    variants = list(pinned_cases())
    seen = {json.dumps(v, sort_keys=True) for v in variants}
    while len(variants) < count:
        v = {k: rng.choice(SHAPES[k]) for k in keys}
        key = json.dumps(v, sort_keys=True)
        if key not in seen:
            seen.add(key)
            variants.append(v)
    from collections import Counter
    stats = Counter()
    with tempfile.TemporaryDirectory(prefix="dslc-admit-") as tmp:
        for i, v in enumerate(variants):
            run_variant(dslc, tmp, v, i, stats)
            import shutil
            shutil.rmtree(os.path.join(tmp, f"out{i}"), ignore_errors=True)
    # the variants must reach every verdict, or the comparison proves little
    for need in ("default restricted", "default best-effort", "restricted refused", "restricted admitted",
                 "single-numa-node refused", "single-numa-node admitted", "best-effort admitted", "help applied",
                 "dra default restricted"):
        check(f"the variants reach `{need}` ({stats[need]})", stats[need] > 0, dict(stats))
    print(f"admit: {dict(sorted(stats.items()))}")
    print(f"admit: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
