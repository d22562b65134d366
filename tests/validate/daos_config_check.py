#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""An independent check of generated daos_server.yml / daos_agent.yml files.

It re-implements what DAOS does when it loads a config (yaml.v2
UnmarshalStrict into the Server struct, then Validate), transcribed from
../shared/facts/daos-config.md sections 1-2 and 6 (src/control/server/config/
server.go, engine/config.go, storage/config.go, cmd/daos_agent/config.go).
Its key lists are written here on purpose, not read from dslc's schemas/
table, so that a mistake in that table is caught.

usage: daos_config_check.py --release 2.6|2.8 FILE...   (exit 1 on any error)
"""
import re
import sys

import yaml

FABRIC = {"provider", "fabric_iface", "fabric_iface_port", "crt_timeout", "disable_srx",
          "fabric_auth_key", "bypass_health_chk", "secondary_provider_endpoints"}
SERVER_26 = {"name", "access_points", "port", "transport_config", "engines", "bdev_exclude",
             "disable_vfio", "disable_vmd", "enable_hotplug", "nr_hugepages", "system_ram_reserved",
             "disable_hugepages", "allow_thp", "control_log_mask", "control_log_file",
             "control_log_json", "helper_log_file", "firmware_helper_log_file", "fault_path",
             "fault_cb", "telemetry_port", "core_dump_filter", "client_env_vars", "socket_dir",
             "control_metadata", "hyperthreads"} | FABRIC
SERVER_28 = (SERVER_26 - {"access_points", "enable_hotplug"}) | {
    "mgmt_svc_replicas", "access_points", "control_iface", "disable_hotplug",
    "allow_numa_imbalance", "disable_engine_auto_restart", "engine_auto_restart_min_delay",
    "support_config"}
ENGINE = {"targets", "nr_xs_helpers", "first_core", "pinned_numa_node", "log_mask", "log_file",
          "env_vars", "env_pass_through", "storage", "acceleration", "spdk_rpc_server",
          "bdev_auto_faulty", "modules"} | FABRIC
TIER = {"class", "scm_mount", "scm_size", "scm_list", "scm_hugepages_disabled", "bdev_list",
        "bdev_size", "bdev_number", "bdev_busid_range", "bdev_roles"}
TRANSPORT = {"allow_insecure", "client_cert_dir", "ca_cert", "cert", "key"}
CONTROL_METADATA = {"path", "device"}
AGENT = {"name", "access_points", "port", "runtime_dir", "log_file", "control_log_mask",
         "transport_config", "disable_caching", "cache_expiration", "disable_auto_evict",
         "enable_evict_on_start", "exclude_fabric_ifaces", "fabric_ifaces", "telemetry_port",
         "telemetry_enabled", "telemetry_retain"}
AGENT_IFACES = {"numa_node", "devices"}
AGENT_DEVICE = {"iface", "domain"}
INTS = {"port", "nr_hugepages", "system_ram_reserved", "telemetry_port", "crt_timeout",
        "fabric_iface_port", "targets", "nr_xs_helpers", "first_core", "pinned_numa_node",
        "scm_size", "numa_node"}
BOOLS = {"allow_insecure", "disable_srx", "disable_vfio", "disable_vmd"}
LEVELS = {"DEBUG", "DBUG", "INFO", "NOTE", "WARN", "ERROR", "ERR", "CRIT", "ALRT", "FATAL",
          "EMRG", "EMIT"}
SUBSYS = set("DAOS ARRAY KV COMMON TREE VOS CLIENT SERVER RDB RSVC POOL CONTAINER OBJECT "
             "PLACEMENT REBUILD MGMT BIO TESTS DFS DUNS DRPC SECURITY DTX DFUSE IL CSUM STACK "
             "MISC MEM SWIM FI TELEM CRT RPC BULK CORPC GRP LM HG EXTERNAL ST IV CTL".split())
CONTROL_LEVELS = {"DISABLED", "TRACE", "DEBUG", "INFO", "NOTICE", "ERROR"}
PCI = re.compile(r"^([0-9a-fA-F]{4}|[0-9a-fA-F]{6}):[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]$")
CTX_CAP = {"2.6": 64, "2.8": 128}


class StrictLoader(yaml.SafeLoader):
    """yaml.v2 strict mode: a duplicate key in a mapping is an error."""


def _mapping(loader, node, deep=False):
    seen = set()
    for k, _ in node.value:
        key = loader.construct_object(k, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", k.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep)


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


class Checker:
    def __init__(self, path, release):
        self.path, self.release, self.errors = path, release, []

    def err(self, msg):
        self.errors.append(f"{self.path}: {msg}")

    def keys(self, where, mapping, allowed):
        if not isinstance(mapping, dict):
            self.err(f"{where}: expected a mapping")
            return {}
        for k, v in mapping.items():
            if k not in allowed:
                self.err(f"{where}: unknown key {k!r} (strict loading refuses it)")
            if k in INTS and not (isinstance(v, int) and not isinstance(v, bool)):
                self.err(f"{where}.{k}: expected an integer, got {v!r}")
            if k in BOOLS and not isinstance(v, bool):
                self.err(f"{where}.{k}: expected a boolean, got {v!r}")
        return mapping

    def log_mask(self, where, mask):
        if not isinstance(mask, str) or not re.fullmatch(r"[A-Za-z,=_]{1,1023}", mask):
            self.err(f"{where}: invalid log mask {mask!r}")
            return
        for i, item in enumerate(mask.split(",")):
            if "=" in item:
                sub, lvl = item.split("=", 1)
                if sub.upper() not in SUBSYS or lvl.upper() not in LEVELS:
                    self.err(f"{where}: invalid log mask item {item!r}")
            elif i > 0 or item.upper() not in LEVELS:
                self.err(f"{where}: invalid log mask item {item!r}")

    def env(self, where, entries):
        for e in entries or []:
            if not isinstance(e, str) or "=" not in e or not e.split("=", 1)[1]:
                self.err(f"{where}: env entry {e!r} would be dropped (needs KEY=VALUE)")

    def name(self, cfg):
        n = cfg.get("name", "daos_server")
        if not isinstance(n, str) or not 1 <= len(n.encode()) <= 15:
            self.err(f"invalid system name {n!r}")

    def replicas(self, cfg, key, port):
        aps = cfg.get(key)
        if aps is None:
            return
        if not isinstance(aps, list) or not aps:
            self.err(f"{key}: expected a non-empty list")
            return
        full = []
        for ap in aps:
            host, _, p = str(ap).partition(":")
            p = p or str(port)
            if not p.isdigit() or int(p) <= 0:
                self.err(f"{key}: bad port in {ap!r}")
            full.append(f"{host}:{p}")
        if len(set(full)) != len(full):
            self.err(f"{key}: duplicate entries")
        if len(aps) % 2 == 0:
            self.err(f"{key}: even number of replicas (FaultConfigEvenAccessPoints)")

    def storage(self, where, tiers, control_md_path):
        if not isinstance(tiers, list) or not tiers:
            self.err(f"{where}: no storage tiers")
            return set(), None, set()
        scm = [t for t in tiers if isinstance(t, dict) and t.get("class") in ("dcpm", "ram")]
        if len(scm) != 1 or tiers[0] is not scm[0]:
            self.err(f"{where}: exactly one SCM tier, and it must be first")
        bdevs, roles_tiers, mounts = set(), [], set()
        for i, t in enumerate(tiers):
            w = f"{where}.storage[{i}]"
            self.keys(w, t, TIER)
            cls = t.get("class")
            if cls not in ("dcpm", "ram", "nvme", "file", "kdev"):
                self.err(f"{w}: unsupported storage class {cls!r}")
            if cls == "ram":
                if "scm_mount" not in t:
                    self.err(f"{w}: scm_mount is required")
                mounts.add(t.get("scm_mount"))
                if "scm_list" in t:
                    self.err(f"{w}: scm_list is not allowed with class ram")
                sz = t.get("scm_size", 0)
                if sz and sz < 4:
                    self.err(f"{w}: scm_size under 4 GiB")
            if cls == "nvme":
                lst = t.get("bdev_list") or []
                if not any(isinstance(a, str) and PCI.match(a) for a in lst):
                    self.err(f"{w}: nvme needs at least one PCI address")
                for a in lst:
                    if not (isinstance(a, str) and PCI.match(a)):
                        self.err(f"{w}: {a!r} is not a PCI address")
                    if a in bdevs:
                        self.err(f"{w}: duplicate bdev {a}")
                    bdevs.add(a)
            if cls in ("nvme", "file", "kdev"):
                roles_tiers.append(t.get("bdev_roles"))
        if roles_tiers:
            with_roles = [r for r in roles_tiers if r]
            if not with_roles and len(roles_tiers) > 1:
                self.err(f"{where}: several bdev tiers without roles")
            if with_roles and len(with_roles) != len(roles_tiers):
                self.err(f"{where}: roles on some bdev tiers only")
            if with_roles:
                flat = [r for rs in with_roles for r in rs]
                if sorted(flat) != ["data", "meta", "wal"]:
                    self.err(f"{where}: wal, meta and data must each be assigned once, got {flat}")
                for rs in with_roles:
                    if "wal" in rs and "data" in rs and "meta" not in rs:
                        self.err(f"{where}: a tier with wal and data needs meta")
                if "meta" in flat and not control_md_path:
                    self.err(f"{where}: meta role without control_metadata.path")
        elif control_md_path:
            self.err(f"{where}: control_metadata.path without a meta role")
        return bdevs, scm[0].get("class") if scm else None, mounts

    def server(self, cfg):
        allowed = SERVER_26 if self.release == "2.6" else SERVER_28
        self.keys("server", cfg, allowed)
        self.name(cfg)
        if self.release == "2.8" and "access_points" in cfg and "mgmt_svc_replicas" in cfg:
            self.err("access_points and mgmt_svc_replicas together")
        port = cfg.get("port", 10001)
        if port <= 0:
            self.err("port must be positive")
        self.keys("transport_config", cfg.get("transport_config", {}), TRANSPORT)
        cm = cfg.get("control_metadata") or {}
        self.keys("control_metadata", cm, CONTROL_METADATA)
        if cm.get("device") and not cm.get("path"):
            self.err("control_metadata.device without path")
        if cfg.get("system_ram_reserved", 1) <= 0:
            self.err("system_ram_reserved must be positive")
        if cfg.get("control_log_mask", "INFO").upper() not in CONTROL_LEVELS:
            self.err("invalid control_log_mask")
        self.env("client_env_vars", cfg.get("client_env_vars"))
        engines = cfg.get("engines") or []
        if not engines:
            return
        key = "access_points" if self.release == "2.6" else "mgmt_svc_replicas"
        self.replicas(cfg, key, port)
        if not cfg.get("provider"):
            self.err("no provider (FaultConfigNoProvider)")
        elif "," in cfg["provider"]:
            self.err("more than one provider")
        if cfg.get("telemetry_port", 0) < 0:
            self.err("negative telemetry_port")
        nh = cfg.get("nr_hugepages", 0)
        if not 0 <= nh <= 2**31 - 1:
            self.err("nr_hugepages out of range")
        triples, mounts, logs, bdevs, classes, counts = set(), set(), set(), set(), set(), set()
        for i, e in enumerate(engines):
            w = f"engines[{i}]"
            self.keys(w, e, ENGINE)
            t = e.get("targets", 0)
            h = e.get("nr_xs_helpers", 0)
            if t <= 0:
                self.err(f"{w}: target count must be nonzero")
            if h < 0 or e.get("first_core", 0) < 0:
                self.err(f"{w}: negative helpers or first_core")
            if e.get("pinned_numa_node") is not None and e.get("first_core"):
                self.err(f"{w}: cannot specify both pinned_numa_node and first_core")
            prov = e.get("provider", cfg.get("provider"))
            iface, fport = e.get("fabric_iface"), e.get("fabric_iface_port", cfg.get("fabric_iface_port", 0))
            if not iface:
                self.err(f"{w}: no fabric_iface")
            if not fport or fport < 0:
                self.err(f"{w}: fabric_iface_port must be set and positive")
            if (prov, iface, fport) in triples:
                self.err(f"{w}: duplicate fabric (provider, iface, port)")
            triples.add((prov, iface, fport))
            if "log_mask" in e:
                self.log_mask(f"{w}.log_mask", e["log_mask"])
            if "log_file" in e:
                if e["log_file"] in logs:
                    self.err(f"{w}: log_file not unique")
                logs.add(e["log_file"])
            self.env(f"{w}.env_vars", e.get("env_vars"))
            b, cls, m = self.storage(w, e.get("storage"), cm.get("path"))
            if b & bdevs:
                self.err(f"{w}: bdevs overlap another engine's")
            if m & mounts:
                self.err(f"{w}: scm_mount not unique")
            bdevs |= b
            mounts |= m
            classes.add(cls)
            counts.add((t, h))
            ctx = 2 + t + min(h, t)
            if ctx > CTX_CAP[self.release]:
                self.err(f"{w}: {ctx} CaRT contexts exceed {CTX_CAP[self.release]}")
        if len(classes) > 1:
            self.err("SCM class differs between engines")
        if len(counts) > 1:
            self.err("targets or nr_xs_helpers differ between engines")

    def agent(self, cfg):
        self.keys("agent", cfg, AGENT)
        self.name(cfg)
        self.keys("transport_config", cfg.get("transport_config", {}), TRANSPORT - {"client_cert_dir"})
        for i, fi in enumerate(cfg.get("fabric_ifaces") or []):
            self.keys(f"fabric_ifaces[{i}]", fi, AGENT_IFACES)
            for j, d in enumerate(fi.get("devices") or []):
                self.keys(f"fabric_ifaces[{i}].devices[{j}]", d, AGENT_DEVICE)
        if cfg.get("control_log_mask", "INFO").upper() not in CONTROL_LEVELS:
            self.err("invalid control_log_mask")
        if ("telemetry_retain" in cfg or "telemetry_enabled" in cfg) and "telemetry_port" not in cfg:
            self.err("telemetry settings without telemetry_port")


def main(argv):
    release, files = "2.6", []
    it = iter(argv)
    for a in it:
        if a == "--release":
            release = next(it)
        else:
            files.append(a)
    if release not in CTX_CAP or not files:
        print(__doc__, file=sys.stderr)
        return 2
    errors = 0
    for path in files:
        c = Checker(path, release)
        try:
            with open(path) as f:
                cfg = yaml.load(f, Loader=StrictLoader)
        except yaml.YAMLError as e:
            c.err(f"YAML: {e}")
            cfg = None
        if isinstance(cfg, dict):
            (c.agent if path.endswith("daos_agent.yml") else c.server)(cfg)
        elif cfg is not None:
            c.err("top level is not a mapping")
        for e in c.errors:
            print(e)
        errors += len(c.errors)
    print(f"daos_config_check: {len(files)} files, {errors} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
