#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Differential test: dslc's YAML linter against DAOS's own config loader.

For each release it mutates valid daos_server.yml files (dslc's own output for
the reference example) along every axis DAOS validates and asks both judges:
  DAOS rejects  -> `dslc lint` must exit 1 with an error naming a rule;
  DAOS accepts  -> `dslc lint` must raise no error, unless the case is in
                   BY_DESIGN: a defect DAOS misses, which dslc reports on purpose.
The oracle is ../shared/validators/daos-config-check (DAOS's config.Server.Load,
Validate and the start-up checks, built from DAOS's Go sources); without it the
test says `skipped`. Every file dslc writes for the examples and the test
topologies is checked too: each must be accepted.

usage: daos_diff.py DSLC [--keep DIR] [--only SUBSTRING]"""
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daos_loader  # noqa: E402  the loader's path and verdict, shared by the oracle tests
MEM_GIB = 1536  # the oracle's default; dslc gets the same with --mem-gib

# Cases DAOS accepts that dslc reports as errors on purpose: each is a defect
# DAOS does not check (../shared/facts/daos-config.md 2.12), with the reason.
BY_DESIGN = {
    # name of the case (both releases, e0/e1 alike): why dslc reports what DAOS accepts
    "first_core-numa-relative": "first_core 4 on the NUMA 1 engine runs it on NUMA 0's cores (2.12.1)",
    "engines-cores-overlap": "two engines on the same cores: DAOS checks no overlap (2.12.1)",
    "both-first_core-0": "two engines on cores 0-19: DAOS checks no overlap (2.12.1)",
    "e0.first_core=100": "engine 0 on engine 1's cores 100-119 (2.12.1)",
    "e1.first_core=0": "engine 1 on engine 0's cores (2.12.1)",
    "e1.first_core=4": "engine 1 on engine 0's cores 4-23 (2.12.1)",
    "pinned-both-0": "two engines pinned to one NUMA node take the same cores (2.12.3)",
    "mixed-first_core-pin": "one engine's first_core silently drops the other's pinned_numa_node (2.12.2)",
    "e0.pinned_numa_node=0": "a pin beside engine 1's first_core is dropped silently (2.12.2)",
    "e0.pinned_numa_node=1": "a pin beside engine 1's first_core is dropped silently (2.12.2)",
    "e0.pinned_numa_node=2": "a pin beside engine 1's first_core is dropped silently (2.12.2)",
    "e1.pinned_numa_node=0": "a pin beside engine 0's first_core is dropped silently (2.12.2)",
    "e1.pinned_numa_node=1": "a pin beside engine 0's first_core is dropped silently (2.12.2)",
    "e1.pinned_numa_node=2": "a pin beside engine 0's first_core is dropped silently (2.12.2)",
    "e0.scm_size=0": "RAM SCM sized by daos_server at each start takes all free memory (scm-size-unpinned)",
    "e1.scm_size=0": "RAM SCM sized by daos_server at each start takes all free memory (scm-size-unpinned)",
    "e0.scm_size-omitted": "RAM SCM sized by daos_server at each start takes all free memory (scm-size-unpinned)",
    "e1.scm_size-omitted": "RAM SCM sized by daos_server at each start takes all free memory (scm-size-unpinned)",
    "fabric-port-too-close": "engines on one interface need ports #contexts apart (2.12.7)",
    "nr_hugepages=1": "under 256 MiB of hugepages per target the engine dies at start (2.7, 2.12.12)",
    "provider='bogus'": "no such provider: the fabric scan at start fails; the loader does not look",
    "e0.env_vars+no-equals": "an env entry without '=' is dropped silently (2.12.9)",
    "e1.env_vars+no-equals": "an env entry without '=' is dropped silently (2.12.9)",
    "e0.env_vars+empty-value": "an env entry without a value is dropped silently (2.12.9)",
    "e1.env_vars+empty-value": "an env entry without a value is dropped silently (2.12.9)",
    "e0.env_vars+d-log-mask": "D_LOG_MASK in env_vars is overwritten by log_mask and never validated (2.3.6)",
    "e1.env_vars+d-log-mask": "D_LOG_MASK in env_vars is overwritten by log_mask and never validated (2.3.6)",
    "srx-differs": "FI_OFI_RXM_USE_SRX in env_vars fights the fabric setting (2.12.8)",
    "e0.log_mask='bogus'": "an unknown level: the engine rejects the mask at start",
}



def load_yaml(path):
    with open(path) as f:
        return yaml.safe_load(f)


class Case:
    def __init__(self, name, text, by_design=None, mem_gib=MEM_GIB):
        self.name, self.text, self.by_design, self.mem_gib = name, text, by_design, mem_gib


def dump(doc):
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=False)


def mutations(base, release):
    """Yields (name, document or raw text, by_design reason or None)."""
    e0 = lambda d: d["engines"][0]
    e1 = lambda d: d["engines"][1]
    scm = lambda e: e["storage"][0]
    nvme = lambda e: e["storage"][1]
    ap_key = "access_points" if release == "2.6" else "mgmt_svc_replicas"

    def m(name, fn, design=None):
        d = copy.deepcopy(base)
        r = fn(d)
        return name, (r if isinstance(r, str) else d), design

    def setk(path_fn, key, value):
        def f(d):
            path_fn(d)[key] = value
        return f

    def delk(path_fn, key):
        def f(d):
            path_fn(d).pop(key, None)
        return f

    top = lambda d: d
    yield m("base", lambda d: None)
    # --- top level --------------------------------------------------------
    for v in ("", "x" * 15, "x" * 16, "tier 0", 7):
        yield m(f"name={v!r}", setk(top, "name", v))
    yield m("name-missing", delk(top, "name"))
    for v in (0, -1, 1, 10001, 65535, 65536, "x"):
        yield m(f"port={v!r}", setk(top, "port", v))
    for v in (0, -1, 9191, 65536, "x"):
        yield m(f"telemetry_port={v!r}", setk(top, "telemetry_port", v))
    for v in (-1, 0, 1, 16384, 2147483647, 2147483648, "x", 16384.0):
        yield m(f"nr_hugepages={v!r}", setk(top, "nr_hugepages", v))
    for v in (0, -1, 1, 16, 64, "x"):
        yield m(f"system_ram_reserved={v!r}", setk(top, "system_ram_reserved", v))
    for v in ("", "ofi+tcp;ofi_rxm", "ofi+tcp", "ofi+verbs;ofi_rxm,ofi+tcp", "ucx+dc_x", "bogus"):
        yield m(f"provider={v!r}", setk(top, "provider", v))
    yield m("provider-missing", delk(top, "provider"))
    for v in ("INFO", "DEBUG", "ERROR", "bogus", ""):
        yield m(f"control_log_mask={v!r}", setk(top, "control_log_mask", v))
    for k in ("disable_vfio", "disable_vmd", "enable_hotplug", "disable_hugepages", "allow_thp"):
        for v in (True, False, "x"):
            yield m(f"{k}={v!r}", setk(top, k, v))
    yield m("unknown-top-key", setk(top, "no_such_key", 1))
    yield m("transport-insecure", lambda d: d.__setitem__("transport_config", {"allow_insecure": True}))
    yield m("transport-unknown-key", setk(lambda d: d["transport_config"], "bogus", 1))
    yield m("transport-not-map", setk(top, "transport_config", "x"))
    # --- access points ----------------------------------------------------
    aps = {
        "one": ["gpu001"], "two": ["gpu001", "gpu002"], "three-noport": ["gpu001", "gpu002", "gpu003"],
        "port0": ["gpu001:0", "gpu002", "gpu003"], "dup": ["gpu001", "gpu001:10001", "gpu003"],
        "dup-exact": ["gpu001", "gpu001", "gpu003"], "badport": ["gpu001:x", "gpu002", "gpu003"],
        "port-neg": ["gpu001:-1", "gpu002", "gpu003"], "five": [f"gpu00{i}" for i in range(1, 6)],
        "empty": [], "ip": ["10.0.0.1", "10.0.0.2", "10.0.0.3"], "ip-port": ["10.0.0.1:10001", "10.0.0.2", "10.0.0.3"],
        "port-65536": ["gpu001:65536", "gpu002", "gpu003"],
    }
    for k, v in aps.items():
        yield m(f"{ap_key}={k}", setk(top, ap_key, v))
    yield m(f"{ap_key}-missing", delk(top, ap_key))
    other = "mgmt_svc_replicas" if release == "2.6" else "access_points"
    yield m(f"{other}-as-well", setk(top, other, ["gpu001"]))
    yield m(f"{other}-instead", lambda d: d.__setitem__(other, d.pop(ap_key)))
    # --- control metadata, fault domains ------------------------------------
    yield m("control_metadata-missing", delk(top, "control_metadata"))
    yield m("control_metadata-device-no-path", setk(top, "control_metadata", {"device": "/dev/sdb"}))
    yield m("control_metadata-path-device", setk(top, "control_metadata", {"path": "/var/daos/config", "device": "/dev/sdb"}))
    yield m("control_metadata-empty", setk(top, "control_metadata", {}))
    for v in ("/rack1/host1", "/rack1", "/a/b/c", "rack1", "/", "/rack1/", ""):
        yield m(f"fault_path={v!r}", setk(top, "fault_path", v))
    yield m("fault_cb", setk(top, "fault_cb", "/usr/bin/true"))
    yield m("fault_path+fault_cb", lambda d: d.update({"fault_path": "/rack1", "fault_cb": "/usr/bin/true"}))
    # --- bdev_exclude -----------------------------------------------------------
    yield m("bdev_exclude-used", setk(top, "bdev_exclude", ["0000:21:00.0"]))
    yield m("bdev_exclude-unused", setk(top, "bdev_exclude", ["0000:99:00.0"]))
    yield m("disable_hugepages-with-nvme", setk(top, "disable_hugepages", True))
    # --- engines ----------------------------------------------------------------
    yield m("engines-empty-list", setk(top, "engines", []))
    yield m("engines-null", setk(top, "engines", None))
    yield m("engines-missing", delk(top, "engines"))
    yield m("engines-one", lambda d: d.__setitem__("engines", d["engines"][:1]))
    for idx, eng in (("0", e0), ("1", e1)):
        for v in (0, -1, 1, 8, 16, 17, 62, 63, 64, 2147483647, "x", 16.5):
            yield m(f"e{idx}.targets={v!r}", setk(eng, "targets", v))
        for v in (-1, 0, 1, 32, "x"):
            yield m(f"e{idx}.nr_xs_helpers={v!r}", setk(eng, "nr_xs_helpers", v))
        for v in (-1, 0, 4, 100, 200, 383, 384, 100000, "x"):
            yield m(f"e{idx}.first_core={v!r}", setk(eng, "first_core", v))
        for v in (0, 1, 2, -1):
            yield m(f"e{idx}.pinned_numa_node={v!r}", lambda d, v=v, eng=eng: (eng(d).pop("first_core"), eng(d).__setitem__("pinned_numa_node", v)) and None)
        for v in (0, -1, 1, 31416, 65535, 65536, "x"):
            yield m(f"e{idx}.fabric_iface_port={v!r}", setk(eng, "fabric_iface_port", v))
        yield m(f"e{idx}.fabric_iface-missing", delk(eng, "fabric_iface"))
        yield m(f"e{idx}.fabric_iface-empty", setk(eng, "fabric_iface", ""))
        for v in ("ERR", "DEBUG", "INFO,MGMT=DEBUG", "bogus", "ERR,bogus=DEBUG", "", "DBUG"):
            yield m(f"e{idx}.log_mask={v!r}", setk(eng, "log_mask", v))
        yield m(f"e{idx}.log_file-missing", delk(eng, "log_file"))
        yield m(f"e{idx}.unknown-key", setk(eng, "no_such_key", 1))
        yield m(f"e{idx}.provider-own", setk(eng, "provider", "ofi+verbs;ofi_rxm"))
        yield m(f"e{idx}.provider-other", setk(eng, "provider", "ofi+tcp;ofi_rxm"))
        envs = {
            "dd-mask-ok": "DD_MASK=mgmt,io", "dd-mask-bad": "DD_MASK=bogus", "dd-mask-empty": "DD_MASK=",
            "dd-subsys-ok": "DD_SUBSYS=all", "dd-subsys-bad": "DD_SUBSYS=bogus", "dd-subsys-mix": "DD_SUBSYS=mgmt,bogus",
            "abt-small": "ABT_THREAD_STACKSIZE=1024", "abt-big": "ABT_THREAD_STACKSIZE=65536", "abt-nan": "ABT_THREAD_STACKSIZE=x",
            "pmemobj-at-create-1": "PMEMOBJ_CONF=sds.at_create=1", "pmemobj-at-create-0": "PMEMOBJ_CONF=sds.at_create=0",
            "no-equals": "NOEQUALS", "empty-value": "FOO=", "d-log-mask": "D_LOG_MASK=bogus",
            "oversubscribe": "DAOS_TARGET_OVERSUBSCRIBE=1",
        }
        for k, v in envs.items():
            yield m(f"e{idx}.env_vars+{k}", lambda d, v=v, eng=eng: eng(d)["env_vars"].append(v) and None)
        yield m(f"e{idx}.env_vars-not-list", setk(eng, "env_vars", "FOO=1"))
        # storage tiers
        yield m(f"e{idx}.storage-empty", setk(eng, "storage", []))
        yield m(f"e{idx}.storage-scm-only", lambda d, eng=eng: eng(d).__setitem__("storage", eng(d)["storage"][:1]))
        yield m(f"e{idx}.storage-nvme-first", lambda d, eng=eng: eng(d).__setitem__("storage", eng(d)["storage"][::-1]))
        yield m(f"e{idx}.storage-two-scm", lambda d, eng=eng: eng(d)["storage"].insert(1, copy.deepcopy(scm(eng(d)))) and None)
        for v in (0, 1, 3, 4, 64, 700, 741, 742, 2000, "x", -1):
            yield m(f"e{idx}.scm_size={v!r}", setk(lambda d, eng=eng: scm(eng(d)), "scm_size", v))
        yield m(f"e{idx}.scm_size-omitted", delk(lambda d, eng=eng: scm(eng(d)), "scm_size"), "scm-size-unpinned")
        yield m(f"e{idx}.scm_mount-missing", delk(lambda d, eng=eng: scm(eng(d)), "scm_mount"))
        yield m(f"e{idx}.scm_class-dcpm", setk(lambda d, eng=eng: scm(eng(d)), "class", "dcpm"))
        yield m(f"e{idx}.scm_class-bogus", setk(lambda d, eng=eng: scm(eng(d)), "class", "bogus"))
        yield m(f"e{idx}.scm_list-on-ram", setk(lambda d, eng=eng: scm(eng(d)), "scm_list", ["/dev/pmem0"]))
        yield m(f"e{idx}.scm_hugepages_disabled", setk(lambda d, eng=eng: scm(eng(d)), "scm_hugepages_disabled", True))
        yield m(f"e{idx}.bdev_list-empty", setk(lambda d, eng=eng: nvme(eng(d)), "bdev_list", []))
        yield m(f"e{idx}.bdev_list-dup", lambda d, eng=eng: nvme(eng(d))["bdev_list"].append(nvme(eng(d))["bdev_list"][0]) and None)
        yield m(f"e{idx}.bdev_list-bad-pci", lambda d, eng=eng: nvme(eng(d))["bdev_list"].append("0000:zz:00.0") and None)
        yield m(f"e{idx}.bdev_list-vmd", lambda d, eng=eng: nvme(eng(d))["bdev_list"].append("7c0005:01:00.0") and None)
        yield m(f"e{idx}.bdev-class-bogus", setk(lambda d, eng=eng: nvme(eng(d)), "class", "bogus"))
        yield m(f"e{idx}.bdev-class-file", lambda d, eng=eng: nvme(eng(d)).update({"class": "file", "bdev_list": ["/tmp/f"], "bdev_size": 16}))
        roles = {"none": None, "wal-data": ["wal", "data"], "meta-data": ["meta", "data"], "wal": ["wal"],
                 "twice": ["wal", "meta", "data", "data"], "bogus": ["wal", "meta", "bogus"], "empty": []}
        for k, v in roles.items():
            if v is None:
                yield m(f"e{idx}.bdev_roles-{k}", delk(lambda d, eng=eng: nvme(eng(d)), "bdev_roles"))
            else:
                yield m(f"e{idx}.bdev_roles-{k}", setk(lambda d, eng=eng: nvme(eng(d)), "bdev_roles", v))
        yield m(f"e{idx}.two-nvme-tiers-roles", lambda d, eng=eng: (
            nvme(eng(d)).__setitem__("bdev_roles", ["wal"]),
            eng(d)["storage"].append({"class": "nvme", "bdev_list": ["0000:e1:00.0"], "bdev_roles": ["meta", "data"]})) and None)
        yield m(f"e{idx}.two-nvme-tiers-no-roles", lambda d, eng=eng: (
            nvme(eng(d)).pop("bdev_roles"),
            eng(d)["storage"].append({"class": "nvme", "bdev_list": ["0000:e1:00.0"]})) and None)
        yield m(f"e{idx}.storage-unknown-key", setk(lambda d, eng=eng: nvme(eng(d)), "bogus", 1))
    # --- cross-engine --------------------------------------------------------------
    yield m("same-fabric-triple", lambda d: e1(d).update({"fabric_iface": e0(d)["fabric_iface"], "fabric_iface_port": e0(d)["fabric_iface_port"]}))
    yield m("same-iface-ports-apart", lambda d: e1(d).update({"fabric_iface": e0(d)["fabric_iface"]}))
    yield m("fabric-port-too-close", lambda d: e1(d).update({"fabric_iface": e0(d)["fabric_iface"], "fabric_iface_port": e0(d)["fabric_iface_port"] + 1}), "engines on one interface need ports #contexts apart")
    yield m("same-log_file", setk(e1, "log_file", "/var/log/daos/daos_engine.0.log"))
    yield m("same-scm_mount", setk(lambda d: scm(e1(d)), "scm_mount", "/mnt/daos0"))
    yield m("scm_mount-trailing-slash", setk(lambda d: scm(e1(d)), "scm_mount", "/mnt/daos0/"))
    yield m("bdev-overlap", lambda d: nvme(e1(d))["bdev_list"].append("0000:21:00.0") and None)
    yield m("scm-class-differs", setk(lambda d: scm(e1(d)), "class", "dcpm"))
    yield m("targets-differ", setk(e1, "targets", 8))
    yield m("helpers-differ", setk(e1, "nr_xs_helpers", 1))
    yield m("scm_hugepages_disabled-differs", setk(lambda d: scm(e1(d)), "scm_hugepages_disabled", True))
    yield m("engines-cores-overlap", setk(e1, "first_core", 10), "two engines on the same cores")
    yield m("first_core-numa-relative", setk(e1, "first_core", 4), "first_core 4 on the NUMA 1 engine")
    yield m("both-first_core-0", lambda d: (e0(d).__setitem__("first_core", 0), e1(d).__setitem__("first_core", 0)) and None, "two engines on the same cores")
    yield m("pinned-both-0", lambda d: (e0(d).pop("first_core"), e1(d).pop("first_core"), e0(d).__setitem__("pinned_numa_node", 0), e1(d).__setitem__("pinned_numa_node", 0)) and None)
    yield m("mixed-first_core-pin", lambda d: (e1(d).pop("first_core"), e1(d).__setitem__("pinned_numa_node", 1)) and None, "mixed modes")
    # --- fabric keys at the top level: FabricConfig.Update (src/control/server/
    # engine/config.go) fills an engine's empty interface ("" as well as
    # absent) and zero port from them; Validate then judges what each engine got
    def top_fabric(iface=None, port=None, engines=None):
        def f(d):
            if iface is not None:
                d["fabric_iface"] = iface
            if port is not None:
                d["fabric_iface_port"] = port
            for e, edit in zip(d["engines"], engines or ()):
                edit(e)
        return f
    drop_iface = lambda e: e.pop("fabric_iface")
    drop_port = lambda e: e.pop("fabric_iface_port")
    keep = lambda e: None
    set_ = lambda k, v: lambda e: e.__setitem__(k, v)
    shared = lambda d: d["engines"][0]["fabric_iface"]
    for name, iface, port, edits in (
        ("top-iface+engines-without", "ens1f0np0", None, (drop_iface, drop_iface)),
        ("top-iface+engines-empty", "ens1f0np0", None, (set_("fabric_iface", ""), set_("fabric_iface", ""))),
        ("top-iface+e1-empty", "ens1f0np0", None, (keep, set_("fabric_iface", ""))),
        ("top-iface+engines-own", "ens1f0np0", None, ()),
        ("top-iface-empty+engines-without", "", None, (drop_iface, drop_iface)),
        ("top-iface-empty+e1-empty", "", None, (keep, set_("fabric_iface", ""))),
        ("top-port+e1-without", None, 32416, (keep, drop_port)),
        ("top-port+e1-zero", None, 32416, (keep, set_("fabric_iface_port", 0))),
        ("top-port-zero+e1-zero", None, 0, (keep, set_("fabric_iface_port", 0))),
        ("top-port-negative+e1-without", None, -1, (keep, drop_port)),
        ("top-port-negative+e1-zero", None, -1, (keep, set_("fabric_iface_port", 0))),
        ("top-port+engines-without", None, 31416, (drop_port, drop_port)),
        ("top-both+engines-without", "ens1f0np0", 31416, (lambda e: (drop_iface(e), drop_port(e)),) * 2),
        ("top-both+engines-empty", "ens1f0np0", 31416, (lambda e: e.update({"fabric_iface": "", "fabric_iface_port": 0}),) * 2),
        ("top-both+e1-empty-own-port", "ens1f0np0", 31416, (keep, lambda e: e.update({"fabric_iface": "", "fabric_iface_port": 32416}))),
    ):
        yield m(name, top_fabric(iface, port, edits))
    yield m("top-port+one-iface-engines-zero", lambda d: (top_fabric(None, 31416, (set_("fabric_iface_port", 0),) * 2)(d),
                                                             e1(d).__setitem__("fabric_iface", shared(d))) and None)
    for abt in ("1024", "32768", "x"):
        yield m(f"ucx-abt={abt}", lambda d, abt=abt: (d.__setitem__("provider", "ucx+dc_x"),
                                                       [e["env_vars"].append(f"ABT_THREAD_STACKSIZE={abt}") for e in d["engines"]]) and None)
    yield m("e0.log_mask-null", setk(e0, "log_mask", None))
    yield m("srx-differs", lambda d: e0(d)["env_vars"].append("FI_OFI_RXM_USE_SRX=1") and None)
    # --- YAML shapes DAOS accepts ------------------------------------------------------
    text = dump(base)
    anchored = text.replace("engines:\n- targets: 16\n", "engines:\n- &engine\n  targets: 16\n", 1)
    i = anchored.index("- targets: 16\n  nr_xs_helpers: 2\n")
    yield "merge-keys", anchored[:i] + "- <<: *engine\n" + anchored[i + len("- targets: 16\n  nr_xs_helpers: 2\n"):], None
    yield "merge-keys-override", anchored[:i] + "- <<: *engine\n  targets: 8\n" + anchored[i + len("- targets: 16\n  nr_xs_helpers: 2\n"):], None
    yield "targets-float", text.replace("targets: 16", "targets: 16.0"), None
    yield "log_mask-null", text.replace("control_log_mask: INFO", "control_log_mask: ~"), None
    yield "engines-no-value", re.sub(r"^engines:\n(.|\n)*", "engines:\n", text, flags=re.M), None
    for null in ("~", "null", "Null", "NULL", "nULL", "'null'"):
        yield f"engines={null}", re.sub(r"^engines:\n(.|\n)*", f"engines: {null}\n", text, flags=re.M), None
        yield f"bdev_exclude={null}", text + f"bdev_exclude: {null}\n", None
    yield "duplicate-key", text.replace("port: 10001\n", "port: 10001\nport: 10002\n", 1), None
    # --- memory ---------------------------------------------------------------
    for gib in (64, 128, 160, 256):
        yield f"mem-gib={gib}", (text, gib), None


def cases(base, release):
    for name, doc, design in mutations(base, release):
        mem = MEM_GIB
        if isinstance(doc, tuple):
            doc, mem = doc
        yield Case(name, doc if isinstance(doc, str) else dump(doc), BY_DESIGN.get(name, design), mem)


def oracle(path, release, mem):
    accepted, out = daos_loader.run(["--release", release, "-mem-gib", str(mem), path], timeout=60)
    return accepted, out.strip().splitlines()[-1:] or [""]


def dslc(dslc_bin, path, release, mem, extra=()):
    r = subprocess.run([dslc_bin, "lint", "--format", "json", "--release", release, "--mem-gib", str(mem), *extra, path],
                       capture_output=True, text=True, timeout=60)
    try:
        findings = json.loads(r.stdout)["findings"]
    except (ValueError, KeyError):
        return r.returncode, [f"unreadable output: {r.stdout[:200]} {r.stderr[:200]}"]
    return r.returncode, [f"{f['ruleId']}: {f['message']}" for f in findings if f["severity"] == "error"]


def generated_files(dslc_bin, tmp):
    """Every daos_server.yml dslc writes for the examples and test topologies."""
    out = []
    for d in sorted(os.listdir(os.path.join(ROOT, "examples"))):
        src = os.path.join(ROOT, "examples", d, "cluster.dsl")
        if os.path.exists(src):
            # an example on 2.6 is built for both releases; one that declares
            # another (md-on-ssd: mem_ratio is 2.8's) for that one only
            declared = re.search(r"^daos (2\.[0-9]+)", open(src).read(), re.M)
            rels = ("2.6", "2.8") if not declared or declared.group(1) == "2.6" else (declared.group(1),)
            for rel in rels:
                text = open(src).read().replace("daos 2.6", f"daos {rel}", 1)
                s = os.path.join(os.path.dirname(src), f".diff-{rel}.dsl")
                open(s, "w").write(text)
                o = os.path.join(tmp, f"gen-{d}-{rel}")
                r = subprocess.run([dslc_bin, "build", s, "-o", o], capture_output=True, text=True)
                os.remove(s)
                if r.returncode != 0:
                    out.append((f"build {d} {rel}", None, rel, r.stderr.strip().splitlines()[-1:]))
                    continue
                for node in sorted(os.listdir(os.path.join(o, "nodes"))):
                    y = os.path.join(o, "nodes", node, "etc", "daos", "daos_server.yml")
                    if os.path.exists(y):
                        out.append((f"{d} {rel} {node}", y, rel, None))
                # deploy kubernetes: the file is each DaemonSet group's ConfigMap
                kdir = os.path.join(o, "cluster", "kubernetes")
                for f in sorted(os.listdir(kdir)) if os.path.isdir(kdir) else []:
                    if not f.startswith("daos-server-"):
                        continue
                    import yaml
                    cm = next(doc for doc in yaml.safe_load_all(open(os.path.join(kdir, f))) if doc["kind"] == "ConfigMap")
                    y = os.path.join(kdir, f[:-5] + ".daos_server.yml")
                    open(y, "w").write(cm["data"]["daos_server.yml"])
                    out.append((f"{d} {rel} {f}", y, rel, None))
    # every test cluster that builds: the golden fixtures whose lint passes
    diag = os.path.join(ROOT, "tests", "golden", "diag")
    for f in sorted(os.listdir(diag)):
        if not f.endswith(".dsl"):
            continue
        src = os.path.join(diag, f)
        exp = src[:-4] + ".expected"
        text = open(src).read()
        if text.startswith("# dslc-test-args") or not os.path.exists(exp) or not open(exp).read().rstrip().endswith("exit: 0"):
            continue
        rel = re.search(r"^daos (2\.[0-9]+)", text, re.M)
        rel = rel.group(1) if rel else "2.6"
        o = os.path.join(tmp, f"fixture-{f[:-4]}")
        r = subprocess.run([dslc_bin, "build", src, "-o", o], capture_output=True, text=True)
        if r.returncode != 0:
            out.append((f"build {f}", None, rel, r.stderr.strip().splitlines()[-1:]))
            continue
        for node in sorted(os.listdir(os.path.join(o, "nodes"))):
            y = os.path.join(o, "nodes", node, "etc", "daos", "daos_server.yml")
            if os.path.exists(y):
                out.append((f"{f} {node}", y, rel, None))
    return out


def example_variant(tmp, name, cluster_edit=None, hardware_edit=None):
    """The reference example with edits, in its own directory."""
    d = os.path.join(tmp, f"ex-{name}")
    os.makedirs(d, exist_ok=True)
    ex = os.path.join(ROOT, "examples", "hgx-b200")
    shutil.copy(os.path.join(ex, "hgx-b200.xml"), d)
    hw = open(os.path.join(ex, "hardware.dsl")).read()
    open(os.path.join(d, "hardware.dsl"), "w").write(hardware_edit(hw) if hardware_edit else hw)
    c = open(os.path.join(ex, "cluster.dsl")).read()
    c = re.sub(r"  kubelet \{[^}]*\}\n", "", c)  # the DAOS side only
    open(os.path.join(d, "cluster.dsl"), "w").write(cluster_edit(c) if cluster_edit else c)
    return os.path.join(d, "cluster.dsl")


def build_gpu001(dslc_bin, src):
    """Builds src; gpu001's daos_server.yml, or None and the last error line."""
    o = src + ".out"
    r = subprocess.run([dslc_bin, "build", src, "-o", o], capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr.strip().splitlines()[-1:]
    return os.path.join(o, "nodes", "gpu001", "etc", "daos", "daos_server.yml"), None


def dsl_checks(dslc_bin, tmp):
    """What dslc derives, against what DAOS computes: yields (name, ok, detail)."""
    for targets, helpers in ((1, 0), (2, 1), (16, 2)):
        for rel in ("2.6", "2.8"):
            src = example_variant(tmp, f"t{targets}-{rel}", lambda c: c.replace("daos 2.6", f"daos {rel}").replace(
                "targets 16", f"targets {targets}").replace("helpers 2", f"helpers {helpers}").replace("cores   20", f"cores   {2 + targets + helpers}"))
            y, err = build_gpu001(dslc_bin, src)
            if not y:
                yield f"{rel} {targets} targets: build", False, err
                continue
            doc = load_yaml(y)
            ours = doc["nr_hugepages"]
            doc["nr_hugepages"] = 0
            z = y + ".min.yml"
            open(z, "w").write(dump(doc))
            _, out = daos_loader.run(["--release", rel, "-v", z])
            m = re.search(r"nr_hugepages=(\d+)", out)
            theirs = int(m.group(1)) if m else None
            yield (f"{rel} {targets} targets: nr_hugepages {ours} is at least DAOS's minimum {theirs}",
                   theirs is not None and ours >= theirs, out.strip().splitlines()[-1:])
    for rel in ("2.6", "2.8"):
        src = example_variant(tmp, f"hp1g-{rel}", lambda c: c.replace("daos 2.6", f"daos {rel}"),
                              lambda h: h.replace("  memory_per_numa  768GiB\n", "  memory_per_numa  768GiB\n  hugepage_size    1GiB\n"))
        y, err = build_gpu001(dslc_bin, src)
        if not y:
            yield f"{rel} hugepage_size 1GiB: build", False, err
            continue
        accepted, out = daos_loader.run(["--release", rel, "-hugepage-kib", "1048576", y])
        yield f"{rel} hugepage_size 1GiB: DAOS accepts the file", accepted, out.strip().splitlines()[-1:]
        rc, errors = dslc(dslc_bin, y, rel, MEM_GIB, ["--hugepage-size", "1GiB"])
        yield f"{rel} hugepage_size 1GiB: lint of the file it wrote raises nothing", rc == 0 and not errors, errors[:2]


def main(argv):
    dslc_bin = os.path.abspath(argv[0])
    keep = argv[argv.index("--keep") + 1] if "--keep" in argv else None
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    if not daos_loader.available("daos-diff"):
        return daos_loader.ABSENT_STATUS
    tmp = keep or tempfile.mkdtemp(prefix="dslc-daos-diff-")
    os.makedirs(tmp, exist_ok=True)
    fails = passes = 0
    by_design_seen = []
    try:
        for name, path, rel, err in generated_files(dslc_bin, tmp):
            if path is None:
                print(f"FAIL daos-diff generated {name}: dslc build failed: {err}")
                fails += 1
                continue
            ok, why = oracle(path, rel, MEM_GIB)
            if ok:
                passes += 1
                print(f"ok   daos-diff generated {name} is accepted by DAOS {rel}")
            else:
                fails += 1
                print(f"FAIL daos-diff generated {name}: DAOS {rel} rejects it: {why[0]}")
        for name, good, detail in dsl_checks(dslc_bin, tmp):
            if good:
                passes += 1
                print(f"ok   daos-diff dsl {name}")
            else:
                fails += 1
                print(f"FAIL daos-diff dsl {name}: {detail}")
        for rel in ("2.6", "2.8"):
            base_dir = os.path.join(tmp, f"gen-hgx-b200-{rel}", "nodes", "gpu001", "etc", "daos", "daos_server.yml")
            base = load_yaml(base_dir)
            n = 0
            for c in cases(base, rel):
                if only and only not in c.name:
                    continue
                n += 1
                path = os.path.join(tmp, f"{rel}-{n:03d}.yml")
                open(path, "w").write(c.text)
                accepted, why = oracle(path, rel, c.mem_gib)
                rc, errors = dslc(dslc_bin, path, rel, c.mem_gib)
                label = f"daos-diff {rel} {c.name}"
                if not accepted:
                    good = rc == 1 and errors
                    verdict = f"DAOS rejects ({why[0]}); dslc: {errors[:2] or 'no error'}"
                elif c.by_design:
                    good = rc == 1 and errors
                    if good:
                        by_design_seen.append((rel, c.name, c.by_design))
                    verdict = f"DAOS accepts a known defect ({c.by_design}); dslc: {errors[:2] or 'no error'}"
                else:
                    good = not errors
                    verdict = f"DAOS accepts; dslc: {errors[:2] or 'no error'}"
                if good:
                    passes += 1
                    print(f"ok   {label}")
                else:
                    fails += 1
                    print(f"FAIL {label} [{path}]: {verdict}")
            print(f"daos-diff {rel}: {n} cases")
    finally:
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"daos-diff: disagreements by design ({len(by_design_seen)}): DAOS accepts, dslc reports on purpose")
    for rel, name, why in by_design_seen:
        print(f"  {rel} {name}: {why}")
    print(f"daos-diff: {passes} passed, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except daos_loader.LoaderBroken as e:  # the oracle failing is a failure, never a rejection
        print(f"FAIL daos-diff: {e}")
        sys.exit(1)
