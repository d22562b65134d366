#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Values at their edges, each read back from what dslc writes and held
against what its consumer does with it (issue 74):

- hugepages in pods: the daos-server pod's hugepages-1Gi and the boot
  reservation with 1 GiB pages, where the start-up margin (2 pages per
  engine for daos_server's prepare, and the 128 pages its NVMe scan needs:
  ScanMinHugepageCount, src/control/server/config/server.go) is not a whole
  number of pages and must round up, or the pod asks for less than the
  engines allocate; the same with 2 MiB pages; a training pod's
  client_hugepages added to the boot reservation, and refused where the
  node's pages are 1 GiB (no hugepages-2Mi exist there);
- the boot reservation spread over the NUMA nodes as the kernel spreads
  hugepages=N (round-robin, the first nodes one page more: mm/hugetlb.c,
  hugetlb_hstate_alloc_pages), held against the kubelet's per-NUMA
  reservation at exact fit (no finding) and one page over (the finding);
- nr_hugepages of every engine shape, nvme file engines included, equal to
  what DAOS's own loader computes for the same file with nr_hugepages 0
  (SetNrHugepages, src/control/server/config/server.go);
- every ROMIO hint of the keyword table (`dslc keywords`, block mpiio) set
  to a value of its own, read back from etc/daos/romio-hints as ROMIO reads
  that file (romio/adio/common/system_hints.c: one "key value" per line,
  '#' lines skipped), and the with-daos-io wrapper run in front of a
  program that prints its environment: ROMIO_HINTS, HDF5_VOL_CONNECTOR and
  HDF5_PLUGIN_PATH as the job sees them;
- overrides: a node block's env, engine, kernel parameter and BIOS values
  replace its profile's in that node only, once each, its host matched as
  DNS compares names.

usage: tests/edges.py DSLC   (DSLC may be "valgrind ... build/dslc")
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
import daos_loader  # noqa: E402

DSLC = [os.path.abspath(a) if "/" in a and os.path.exists(a) else a for a in shlex.split(sys.argv[1])]
MiB, GiB = 1 << 20, 1 << 30
passed = failed = 0


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   edges {name}")
    else:
        failed += 1
        print(f"FAIL edges {name}{': ' + str(detail)[:1500] if detail else ''}")


def dslc(*args, cwd):
    return subprocess.run(DSLC + list(args), cwd=cwd, capture_output=True, text=True)


def findings(cwd, path):
    r = dslc("lint", "--format", "json", "--max-findings", "0", path, cwd=cwd)
    try:
        d = json.loads(r.stdout)
    except ValueError:
        return None
    return d.get("findings", []) if isinstance(d, dict) else d


def read(path):
    with open(path) as f:
        return f.read()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


# ---- a workspace: the GPU reference deployment in pods, its hardware hand-described

def hardware(page, numa_memory):
    """hgx-b200's hardware without its export (the NUMA nodes' memory is
    then the description's own), with the hugepage size and memory given."""
    text = read(os.path.join(REPO, "examples", "hgx-b200", "hardware.dsl"))
    text = re.sub(r'\n *topology +"hgx-b200.xml"', "", text)
    return text.replace("memory_per_numa  768GiB", f"memory_per_numa  {numa_memory}\n  hugepage_size    {page}")


def pods_description(client_hugepages=None):
    text = read(os.path.join(REPO, "examples", "hgx-b200-k8s", "cluster.dsl"))
    text = text.replace('include "../hgx-b200/hardware.dsl"', 'include "hardware.dsl"')
    if client_hugepages:
        text = re.sub(r"(\n    agent_run_as [^\n]*)", r"\1\n    client_cpus 32\n    client_memory 64GiB\n"
                      f"    client_hugepages {client_hugepages}", text, count=1)
    return text


def server_pod(out):
    """The daos-server DaemonSet of the converged nodes (not gpu007's own)."""
    d = os.path.join(out, "cluster", "kubernetes")
    for name in sorted(os.listdir(d)):
        if name.startswith("daos-server-"):
            text = read(os.path.join(d, name))
            if "gpu001" in text or "converged" in text:
                return text
    return ""


def cmdline(out, host):
    m = re.search(r'GRUB_CMDLINE_LINUX="\$\{GRUB_CMDLINE_LINUX:-\} ([^"]*)"',
                  read(os.path.join(out, "nodes", host, "etc", "default", "grub.d", "60-dslc.cfg")))
    return m.group(1).split() if m else []


def margin_pages(engines, page):
    """daos_server's start-up pages beyond nr_hugepages, in pages of this
    size, rounded up: a pod that asked for fewer could not hold them."""
    need = (2 * engines + 128) * 2 * MiB
    return -(-need // page)


def pods(tmp):
    for page, label, unit in ((GiB, "1GiB", "1Gi"), (2 * MiB, "2MiB", "2Mi")):
        w = os.path.join(tmp, "pods-" + label)
        os.makedirs(w)
        write(os.path.join(w, "hardware.dsl"), hardware(label, "768GiB"))
        write(os.path.join(w, "cluster.dsl"), pods_description())
        r = dslc("build", "cluster.dsl", "-o", "out", cwd=w)
        pod = server_pod(os.path.join(w, "out"))
        nr = re.search(r"\n +nr_hugepages: (\d+)", pod)
        engines = len(re.findall(r"\n +- targets: ", pod)) or len(re.findall(r"\n +targets: ", pod))
        if r.returncode != 0 or not nr or engines != 2:
            result(False, f"pods with {label} pages: built, the pod's daos_server.yml read", r.stderr[-600:] or pod[:600])
            continue
        want = int(nr.group(1)) + margin_pages(engines, page)
        quantity = f"{want * page // GiB}Gi" if page == GiB else f"{want * page // MiB}Mi"
        got = re.findall(rf"hugepages-{unit}: (\S+)", pod)
        result(len(got) == 2 and set(got) == {quantity},
               f"pods with {label} pages: the daos-server pod requests and limits nr_hugepages + the start-up "
               f"margin rounded up ({quantity})", got)
        args = cmdline(os.path.join(w, "out"), "gpu001")
        size = "1G" if page == GiB else "2M"
        order = [a for a in args if a.split("=")[0] in ("hugepagesz", "hugepages", "default_hugepagesz")]
        want_order = [f"hugepagesz={size}", f"hugepages={want}"] + (["default_hugepagesz=1G"] if page == GiB else [])
        result(order == want_order, f"pods with {label} pages: the boot reservation is the pod's pages, "
               "hugepagesz before hugepages", order)


def client_pages(tmp):
    w = os.path.join(tmp, "client-2MiB")
    os.makedirs(w)
    write(os.path.join(w, "hardware.dsl"), hardware("2MiB", "768GiB"))
    write(os.path.join(w, "cluster.dsl"), pods_description("4GiB"))
    r = dslc("build", "cluster.dsl", "-o", "out", cwd=w)
    out = os.path.join(w, "out")
    pod = server_pod(out)
    nr = re.search(r"\n +nr_hugepages: (\d+)", pod)
    want = int(nr.group(1)) + margin_pages(2, 2 * MiB) + 4 * GiB // (2 * MiB) if nr else None
    args = cmdline(out, "gpu001") if r.returncode == 0 else []
    result(f"hugepages={want}" in args, "a training pod's client_hugepages (4GiB) join DAOS's boot reservation "
           f"(hugepages={want})", args or r.stderr[-600:])
    clients = [n for n in os.listdir(os.path.join(out, "cluster", "kubernetes")) if n.startswith("daos-client")] \
        if r.returncode == 0 else []
    text = read(os.path.join(out, "cluster", "kubernetes", clients[0])) if clients else ""
    result(re.findall(r"hugepages-2Mi: (\S+)", text) and set(re.findall(r"hugepages-2Mi: (\S+)", text)) == {"4Gi"},
           "the client pod template asks for the 4Gi of hugepages-2Mi", re.findall(r"hugepages-\S+: \S+", text))

    w = os.path.join(tmp, "client-1GiB")
    os.makedirs(w)
    write(os.path.join(w, "hardware.dsl"), hardware("1GiB", "768GiB"))
    write(os.path.join(w, "cluster.dsl"), pods_description("4GiB"))
    fs = findings(w, "cluster.dsl") or []
    lines = read(os.path.join(w, "cluster.dsl")).split("\n")
    at = [f for f in fs if f["ruleId"] == "k8s-client-hugepages"]
    result(at and all(lines[f["line"] - 1].strip().startswith("client_hugepages") for f in at) and
           all("1 GiB pages" in f["message"] for f in at),
           "client_hugepages on nodes with 1 GiB pages: k8s-client-hugepages at its line", fs)
    r = dslc("build", "cluster.dsl", "-o", "out", cwd=w)
    result(r.returncode == 1 and not os.path.exists(os.path.join(w, "out")),
           "... and the build refuses it (exit 1, nothing written)", r.returncode)


MEMORY = re.compile(r"NUMA node (\d+) must reserve (\d+) MiB and hold (\d+) MiB of hugepages but has (\d+) MiB")


def kubelet_memory(w, numa_memory):
    write(os.path.join(w, "hardware.dsl"), hardware("1GiB", numa_memory))
    fs = findings(w, "cluster.dsl")
    if fs is None:
        return None
    out = {}
    for f in fs:
        if f["ruleId"] != "kubelet-memory":
            continue
        # one finding for the kubelet block, each further NUMA node a note of it
        for text in [f["message"]] + [n["message"] for n in f.get("notes", [])]:
            m = MEMORY.search(text)
            if m:
                out[int(m.group(1))] = tuple(int(x) for x in m.groups()[1:])
    return out


def boot_spread(tmp):
    """35 pages of 1 GiB over two NUMA nodes: 18 on node 0, 17 on node 1.
    With the kubelet's reservation R per node, node 0 fits exactly at
    R + 18 GiB, and node 1 at R + 17 GiB, one page less."""
    w = os.path.join(tmp, "spread")
    os.makedirs(w)
    write(os.path.join(w, "cluster.dsl"), pods_description())
    small = kubelet_memory(w, "20GiB")
    if not small or sorted(small) != [0, 1]:
        result(False, "boot spread: both NUMA nodes short of memory at 20GiB", small)
        return
    (r0, h0, _), (r1, h1, _) = small[0], small[1]
    boot = (h0 + h1) // 1024
    result(h0 == -(-boot // 2) * 1024 and h1 == boot // 2 * 1024 and r0 == r1,
           f"boot spread: {boot} pages over 2 NUMA nodes as the kernel spreads them ({h0} MiB, {h1} MiB)", small)
    fit = r0 + h0
    exact = kubelet_memory(w, f"{fit}MiB")
    result(exact == {}, f"boot spread: {fit} MiB per NUMA node (node 0's exact fit): no kubelet-memory", exact)
    over = kubelet_memory(w, f"{fit - 1024}MiB")
    result(over is not None and sorted(over) == [0] and over[0][1] == h0,
           f"boot spread: {fit - 1024} MiB: node 0 one page over (the finding), node 1 at its exact fit (none)", over)


# ---- nr_hugepages against DAOS's own SetNrHugepages

FILE16 = 'targets 16\n    scm ram 32GiB\n    nvme file "/var/daos/bdev0" size 64GiB'
# label, the engine statement, its body, what follows it in the profile, the hugepage size
ENGINE_SHAPES = [
    ("nvme file", "engine numa 0", FILE16, "", "2MiB"),
    ("nvme file on two engines", "engine per numa", FILE16,
     'engine numa 1 { nvme file "/var/daos/bdev1" size 64GiB }', "2MiB"),
    ("nvme file, 4 targets", "engine numa 0", 'targets 4\n    scm ram 16GiB\n    nvme file "/d/b" size 16GiB', "", "2MiB"),
    ("nvme file, 1 GiB pages", "engine numa 0", FILE16, "", "1GiB"),
    ("two drives", "engine numa 0", "targets 16\n    scm ram 32GiB\n    nvme 0000:21:00.0 0000:22:00.0", "", "2MiB"),
    ("every drive, two engines", "engine per numa", "targets 16\n    scm ram 32GiB", "", "2MiB"),
    ("every drive, two engines, 1 GiB pages", "engine per numa", "targets 16\n    scm ram 32GiB", "", "1GiB"),
    ("a meta role, two engines", "engine per numa", "targets 8\n    scm ram 32GiB\n    nvme roles [wal meta data]", "",
     "2MiB"),
    ("one target", "engine numa 0", "targets 1\n    scm ram 8GiB\n    nvme 0000:21:00.0", "", "2MiB"),
    ("one target with a meta role", "engine numa 0", "targets 1\n    scm ram 8GiB\n    nvme roles [wal meta data]", "",
     "2MiB"),
]


def nr_hugepages(tmp):
    if not daos_loader.available("edges nr_hugepages"):
        return
    hw = read(os.path.join(REPO, "examples", "hgx-b200", "hardware.dsl"))
    for i, (label, where, engine, after, page) in enumerate(ENGINE_SHAPES):
        w = os.path.join(tmp, f"nr-{i}")
        os.makedirs(w)
        write(os.path.join(w, "hardware.dsl"),
              hw.replace("memory_per_numa  768GiB", f"memory_per_numa  768GiB\n  hugepage_size    {page}"))
        shutil.copy(os.path.join(REPO, "examples", "hgx-b200", "hgx-b200.xml"), w)
        write(os.path.join(w, "c.dsl"), "daos 2.6\ncluster tier0 {\n  provider \"ofi+tcp\"\n  access_points n1\n}\n"
              "include \"hardware.dsl\"\nprofile p : hgx-b200 {\n  # dslc: allow scm-ram-volatile -- a test\n"
              f"  {where} {{\n    {engine}\n  }}\n  {after}\n}}\nnode n1 : p\n")
        r = dslc("build", "c.dsl", "-o", "out", cwd=w)
        path = os.path.join(w, "out", "nodes", "n1", "etc", "daos", "daos_server.yml")
        if r.returncode != 0 or not os.path.exists(path):
            result(False, f"nr_hugepages, {label}: built", r.stderr[-800:] + r.stdout[-800:])
            continue
        text = read(path)
        ours = re.search(r"\nnr_hugepages: (\d+)", text)
        zero = os.path.join(w, "zero.yml")
        write(zero, re.sub(r"\nnr_hugepages: \d+", "\nnr_hugepages: 0", text))
        kib = "1048576" if page == "1GiB" else "2048"
        try:
            ok, out = daos_loader.run(["-v", "-hugepage-kib", kib, zero])
        except daos_loader.LoaderBroken as e:
            result(False, f"nr_hugepages, {label}: DAOS's loader", e)
            continue
        theirs = re.search(r"nr_hugepages=(\d+)", out)
        result(ok and ours and theirs and ours.group(1) == theirs.group(1),
               f"nr_hugepages, {label}: dslc's {ours and ours.group(1)} is DAOS's own minimum "
               f"{theirs and theirs.group(1)}", out[-600:] if not ok else "")


# ---- ROMIO and HDF5 hints, from the keyword table

def hint_values(kws):
    """A value of its own for each hint (two switches never share one), and
    the text ROMIO reads back: sizes in bytes."""
    out, switches = [], ["disable", "automatic", "enable"]
    n = 0
    for k in kws:
        syntax = k["syntax"]
        if "<enable|disable|automatic>" in syntax:
            v = switches[n % 3]
            n += 1
            out.append((k["keyword"], v, v))
        elif syntax.endswith("<size>"):
            kib = 64 * (len(out) + 1)
            out.append((k["keyword"], f"{kib}KiB", str(kib * 1024)))
        elif syntax.endswith("<n>"):
            out.append((k["keyword"], str(len(out) + 3), str(len(out) + 3)))
        elif k["keyword"] == "cb_config_list":
            out.append((k["keyword"], '"*:2"', "*:2"))
        elif syntax.endswith("<class>"):
            out.append((k["keyword"], "RP_3GX", "RP_3GX"))  # the container has rd_fac 2
        else:
            out.append((k["keyword"], None, syntax))
    return out


def romio_file(text):
    """etc/daos/romio-hints as ROMIO reads it: key value per line."""
    hints = {}
    for line in text.split("\n"):
        if line.startswith("#"):
            continue
        words = line.split()
        if len(words) >= 2:
            hints[words[0]] = words[1]
    return hints


def romio(tmp):
    kw = json.loads(dslc("keywords", "--format", "json", cwd=REPO).stdout)
    hints = hint_values([k for k in kw if k["block"] == "mpiio"])
    unknown = [h for h in hints if h[1] is None]
    result(len(hints) >= 8 and not unknown, f"{len(hints)} ROMIO hints in the keyword table, each with a test value",
           unknown)
    if unknown:
        return
    switched = [h for h in hints if h[1] in ("enable", "disable", "automatic")]
    result(len({h[1] for h in switched}) == min(3, len(switched)), "the switch hints take different values", switched)
    w = os.path.join(tmp, "romio")
    os.makedirs(w)
    shutil.copytree(os.path.join(REPO, "examples", "aurora-like"), os.path.join(w, "ex"))
    path = os.path.join(w, "ex", "cluster.dsl")
    text = read(path)
    block = "".join(f"    {k} {v}\n" for k, v, _ in hints)
    text2 = re.sub(r"  mpiio \{\n(.*?)\n  \}", "  mpiio {\n" + block.rstrip("\n") + "\n  }", text, count=1, flags=re.S)
    write(path, text2)
    r = dslc("build", "cluster.dsl", "-o", "out", cwd=os.path.join(w, "ex"))
    node = os.path.join(w, "ex", "out", "nodes", "uan001")
    got = romio_file(read(os.path.join(node, "etc", "daos", "romio-hints"))) if r.returncode == 0 else {}
    for k, _, want in hints:
        result(got.get(k) == want, f"ROMIO hint {k}: written as {want}", got.get(k) or r.stderr[-600:])
    result(len(got) == len(hints), "romio-hints holds the block's hints and nothing else", sorted(got))
    wrapper = os.path.join(node, "usr", "local", "bin", "with-daos-io")
    if not os.path.exists(wrapper):
        result(False, "with-daos-io written", r.stderr[-600:])
        return
    plugin = re.search(r'hdf5_vol "([^"]+)"', text2).group(1)
    env = dict(os.environ)
    for v in ("ROMIO_HINTS", "HDF5_VOL_CONNECTOR", "HDF5_PLUGIN_PATH"):
        env.pop(v, None)
    env["HDF5_PLUGIN_PATH"] = "/opt/site/plugins"
    run = subprocess.run(["sh", wrapper, "env"], capture_output=True, text=True, env=env)
    seen = dict(line.split("=", 1) for line in run.stdout.split("\n") if "=" in line)
    result(run.returncode == 0 and seen.get("ROMIO_HINTS") == "/etc/daos/romio-hints" and
           seen.get("HDF5_VOL_CONNECTOR") == "daos" and seen.get("HDF5_PLUGIN_PATH") == plugin + ":/opt/site/plugins",
           "with-daos-io PROGRAM: the job sees ROMIO_HINTS, the DAOS VOL connector and its plugin directory first",
           {k: seen.get(k) for k in ("ROMIO_HINTS", "HDF5_VOL_CONNECTOR", "HDF5_PLUGIN_PATH")})
    env["ROMIO_HINTS"], env["HDF5_PLUGIN_PATH"] = "/home/u/hints", plugin
    run = subprocess.run(["sh", wrapper, "env"], capture_output=True, text=True, env=env)
    seen = dict(line.split("=", 1) for line in run.stdout.split("\n") if "=" in line)
    result(seen.get("ROMIO_HINTS") == "/home/u/hints" and seen.get("HDF5_PLUGIN_PATH") == plugin,
           "with-daos-io: a job's own ROMIO_HINTS wins, the plugin directory is not added twice", seen.get("HDF5_PLUGIN_PATH"))


# ---- overrides: the fold hardware -> profile -> nodes block -> node block

OVERRIDES = """daos 2.6
cluster tier0 {
  provider "ofi+tcp"
  access_points gpu001
}
include "hardware.dsl"
profile p : hgx-b200 {
  os rhel9
  env FI_UNIVERSE_SIZE=2048
  engine per numa {
    targets 16
    scm ram 64GiB
    env D_LOG_FILE_APPEND_PID=1
  }
  kernel { param numa_balancing=enable }
  bios { AmdSetup.ACSEnable = Enabled }
}
nodes gpu[001-003] : p {
  mgmt 10.10.0.{10+i}/24
  bmc 10.30.0.{10+i}
}
node GPU002. {
  env FI_UNIVERSE_SIZE=4096
  engine numa 1 {
    log_mask INFO
    env D_LOG_FILE_APPEND_PID=0
  }
  kernel { param numa_balancing=disable }
  bios { AmdSetup.ACSEnable = Disabled }
}
"""


def node_values(out, host):
    """What a node's files say of the settings the node block overrides."""
    import yaml
    base = os.path.join(out, "nodes", host)
    srv = yaml.safe_load(read(os.path.join(base, "etc", "daos", "daos_server.yml")))
    engines = [(e.get("log_mask"), sorted(v for v in e.get("env_vars", []) if v.startswith(("FI_UNIVERSE_SIZE=",
                                                                                            "D_LOG_FILE_APPEND_PID="))))
               for e in srv["engines"]]
    m = re.search(r"^PARAMS='([^']*)'", read(os.path.join(base, "usr", "local", "sbin", "dslc-kernel-cmdline")), re.M)
    params = [w for w in (m.group(1).split() if m else []) if w.startswith("numa_balancing")]
    bios = re.findall(r'"ACSEnable": "(\w+)"', read(os.path.join(base, "redfish", "bios-settings.json")))
    return engines, params, bios


def overrides(tmp):
    """A later block overrides what an earlier one set (SPEC.md, "How blocks
    combine"): the node block's values replace the profile's, in that node
    only, once each; its host matches as DNS compares names (GPU002. is
    gpu002)."""
    w = os.path.join(tmp, "overrides")
    os.makedirs(w)
    for f in ("hardware.dsl", "hgx-b200.xml"):
        shutil.copy(os.path.join(REPO, "examples", "hgx-b200", f), w)
    write(os.path.join(w, "c.dsl"), OVERRIDES)
    r = dslc("build", "c.dsl", "-o", "out", cwd=w)
    out = os.path.join(w, "out")
    nodes = sorted(os.listdir(os.path.join(out, "nodes"))) if r.returncode == 0 else []
    result(nodes == ["gpu001", "gpu002", "gpu003"], "node GPU002. is gpu002 (one node, as DNS compares names)",
           nodes or r.stderr[-600:])
    if nodes != ["gpu001", "gpu002", "gpu003"]:
        return
    profile = ([("ERR", ["D_LOG_FILE_APPEND_PID=1", "FI_UNIVERSE_SIZE=2048"])] * 2, ["numa_balancing=enable"], ["Enabled"])
    for h in ("gpu001", "gpu003"):
        got = node_values(out, h)
        result(got == profile, f"{h}: the profile's values, untouched by gpu002's block", got)
    got = node_values(out, "gpu002")
    want = ([("ERR", ["D_LOG_FILE_APPEND_PID=1", "FI_UNIVERSE_SIZE=4096"]),
             ("INFO", ["D_LOG_FILE_APPEND_PID=0", "FI_UNIVERSE_SIZE=4096"])], ["numa_balancing=disable"], ["Disabled"])
    result(got == want, "gpu002: its block's env, engine 1's log_mask and env, kernel param and BIOS value, each once "
           "in place of the profile's", got)


with tempfile.TemporaryDirectory() as tmp:
    for t in (pods, client_pages, boot_spread, nr_hugepages, romio, overrides):
        t(tmp)
print(f"edges: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
