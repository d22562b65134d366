#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Differential test of `dslc import` against DAOS's own loader (issue 26).

Inputs, each a set of daos_server.yml files of one system:
  - DAOS's example configs (tests/oracle/daos_examples, release/2.6 and 2.8; the local one's NVMe
    emulated on a file),
    each imported once per access point it names;
  - every daos_server.yml `dslc build` writes for dslc's examples, all nodes
    of an example imported together;
  - generated systems: 1-3 nodes, 1, 2 or 4 engines, pinned_numa_node,
    first_core or neither, 0-3 NVMe tiers with and without MD-on-SSD roles,
    RAM SCM with and without scm_size, PMem, log masks and files left out,
    helpers left out, environment per engine and shared, client_env_vars,
    keys at DAOS's defaults, keys dslc cannot say, nodes that lack a drive,
    nodes that differ, files that disagree on the system.

For each input DAOS's loader (../shared/validators/daos-config-check) judges
every file, and
  - a file DAOS refuses must not import (exit 1, a located error);
  - a system DAOS accepts imports (exit 0), or stops at a located
    import-unsupported / import-conflict error naming the key;
  - an imported description is built, and every built daos_server.yml must
    give what the original gives under `daos-config-check -v`: each engine's
    command line (as a set of arguments) and environment (as a map), the
    node's nr_hugepages, and the storage tiers of daos_server.yml (class,
    mount, size, devices, roles). Allowed, because the build adds them on
    purpose: D_LOG_FILE where the file had no log_file, D_LOG_MASK=INFO
    where it had no log_mask (INFO is the engine's default, src/engine/init.c),
    `-p N` where the file left the NUMA node to daos_server's NIC probe, and
    scm_size 0 for a size left out (both mean "all free memory" to DAOS).
  - dslc never crashes (exit 0 or 1 only).
A description the build refuses is a pass only when the refusal is a rule
of dslc's own judgement that the import showed (an unpinned scm_size).

usage: import_diff.py DSLC [--count N] [--seed S] [--keep DIR]
Without the loader it says `skipped`."""
import copy
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daos_loader  # noqa: E402  the loader's path and verdict, shared by the oracle tests
EXAMPLES = os.path.join(ROOT, "tests", "oracle", "daos_examples")
# rules of dslc's own judgement that stop a build of a description DAOS would run
OWN_JUDGEMENT = {"scm-size-unpinned", "scm-size-small", "memory-overcommit", "hugepages-per-target",
                 "engine-core-budget", "access-points-count", "log-mask-debug", "env-reserved"}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def derive(path, release):
    """What DAOS derives from the file: None when it refuses it."""
    accepted, out = daos_loader.run(["--release", release, "-v", path])
    if not accepted:
        return None
    engines, hp = {}, None
    for line in out.splitlines():
        m = re.search(r"main\.go:\d+: engine (\d+): (env )?(.*)$", line)
        if m:
            e = engines.setdefault(int(m.group(1)), {"args": None, "env": {}})
            if m.group(2):
                e["env"] = dict(kv.split("=", 1) for kv in m.group(3).split() if "=" in kv)
            else:
                args = m.group(3).split()[1:]
                e["args"] = {(args[i], args[i + 1] if i + 1 < len(args) and not args[i + 1].startswith("-") else None)
                             for i in range(len(args)) if args[i].startswith("-")}
        m = re.search(r"nr_hugepages=(\d+)", line)
        if m:
            hp = int(m.group(1))
    return {"engines": engines, "hugepages": hp}


def tiers(path):
    doc = yaml.safe_load(open(path)) or {}
    out = []
    for e in doc.get("engines") or []:
        ts = []
        for t in e.get("storage") or []:
            ts.append((t.get("class"), t.get("scm_mount"), t.get("scm_size") or 0, tuple(t.get("scm_list") or ()),
                       tuple(t.get("bdev_list") or ()), tuple(sorted(t.get("bdev_roles") or ()))))
        out.append(ts)
    return out


def same_meaning(orig, built):
    """The first difference, or None."""
    if orig["hugepages"] != built["hugepages"]:
        return "nr_hugepages %s, built %s" % (orig["hugepages"], built["hugepages"])
    if sorted(orig["engines"]) != sorted(built["engines"]):
        return "engines %s, built %s" % (sorted(orig["engines"]), sorted(built["engines"]))
    for i, o in orig["engines"].items():
        b = built["engines"][i]
        oa, ba = set(o["args"]), set(b["args"])
        if not any(a[0] == "-p" for a in oa):
            ba = {a for a in ba if a[0] != "-p"}  # dslc pins where DAOS would probe the NIC
        if oa != ba:
            return "engine %d: arguments %s / built %s" % (i, sorted(oa - ba), sorted(ba - oa))
        oe, be = dict(o["env"]), dict(b["env"])
        if "D_LOG_FILE" not in oe:
            be.pop("D_LOG_FILE", None)
        if "D_LOG_MASK" not in oe and be.get("D_LOG_MASK") == "INFO":
            be.pop("D_LOG_MASK")
        if oe != be:
            diff = {k: (oe.get(k), be.get(k)) for k in set(oe) | set(be) if oe.get(k) != be.get(k)}
            return "engine %d: environment %s" % (i, diff)
    return None


class Stats:
    def __init__(self):
        self.n = self.same = self.refused_daos = self.refused_import = self.own = 0
        self.fail = []
        self.keys = {}
        self.multi = self.excluded = 0


def check_system(dslc, files, hosts, release, tmp, st, label, expect_profiles=None, refuse=()):
    """Imports files (nodes hosts), builds, compares. Returns True on pass.
    refuse: keys that DAOS accepts and import must stop at (a finding naming
    one of them); without any, a file DAOS accepts must import."""
    st.n += 1
    verdicts = [derive(f, release) for f in files]
    args = [dslc, "import"] + files + ["--host", ",".join(hosts), "--release", release]
    r = run(args)
    if r.returncode not in (0, 1):
        st.fail.append("%s: import crashed (exit %d): %s" % (label, r.returncode, r.stderr[-400:]))
        return False
    if any(v is None for v in verdicts):
        if r.returncode == 0:
            st.fail.append("%s: DAOS refuses a file but it was imported" % label)
            return False
        if not re.search(r":\d+:\d+: error\[", r.stderr):
            st.fail.append("%s: refused without a located error: %s" % (label, r.stderr[-300:]))
            return False
        st.refused_daos += 1
        return True
    if r.returncode == 1:
        m = re.search(r"^(\S+):(\d+):\d+: error\[(import-unsupported|import-conflict)\]: ([^\n]*)", r.stderr, re.M)
        if not m or r.stdout:
            st.fail.append("%s: DAOS accepts it, import stopped without an import finding: %s" % (label, r.stderr[-400:]))
            return False
        key = re.match(r"[\w.']+", m.group(4))
        key = key.group(0) if key else m.group(4)[:30]
        if key not in refuse:
            st.fail.append("%s: import stopped at %s, but %s: %s" % (
                label, key, "nothing in it is unsupported" if not refuse else "it was to stop at " + " or ".join(sorted(refuse)),
                m.group(0)))
            return False
        st.keys[key] = st.keys.get(key, 0) + 1
        st.refused_import += 1
        return True
    if refuse:
        st.fail.append("%s: DAOS accepts it and import must stop at %s (no description says it), but it was imported (exit %d)"
                       % (label, " or ".join(sorted(refuse)), r.returncode))
        return False
    st.multi += len(re.findall(r"^profile ", r.stdout, re.M)) > 1
    st.excluded += "exclude nvme" in r.stdout
    desc = os.path.join(tmp, "imported.dsl")
    open(desc, "w").write(r.stdout)
    if expect_profiles is not None:
        n = len(re.findall(r"^profile ", r.stdout, re.M))
        if n != expect_profiles:
            st.fail.append("%s: %d profiles, expected %d" % (label, n, expect_profiles))
            return False
    out = os.path.join(tmp, "built")
    shutil.rmtree(out, ignore_errors=True)
    shown = set(re.findall(r"error\[([\w-]+)\]", r.stderr))
    b = run([dslc, "build", desc, "-o", out] + (["--disable", ",".join(sorted(shown))] if shown else []))
    if b.returncode != 0:
        st.fail.append("%s: the imported description does not build: %s" % (label, b.stderr[-400:]))
        return False
    if shown - OWN_JUDGEMENT:
        st.fail.append("%s: import shows errors that are not dslc's own judgement: %s" % (label, shown - OWN_JUDGEMENT))
        return False
    if shown:
        st.own += 1
    for f, h, v in zip(files, hosts, verdicts):
        built = os.path.join(out, "nodes", h, "etc", "daos", "daos_server.yml")
        if not os.path.exists(built):
            st.fail.append("%s: no daos_server.yml built for %s" % (label, h))
            return False
        bv = derive(built, release)
        if bv is None:
            st.fail.append("%s: DAOS refuses the built file of %s: %s" % (label, h, daos_loader.run(["--release", release, built])[1][-300:]))
            return False
        why = same_meaning(v, bv)
        if not why:
            ot, bt = tiers(f), tiers(built)
            why = None if ot == bt else "storage tiers %s, built %s" % (ot, bt)
        if why:
            st.fail.append("%s: %s: %s" % (label, h, why))
            return False
    st.same += 1
    return True


# ---- generated systems ----------------------------------------------------------------

PROVIDERS = ["ofi+tcp", "ofi+verbs;ofi_rxm", "ofi+verbs", "ucx+dc_x", "ofi+cxi"]
ENVS = ["FI_SOCKETS_MAX_CONN_RETRY=1", "DAOS_TARGET_OVERSUBSCRIBE=1", "ABT_THREAD_STACKSIZE=65536",
        "FI_UNIVERSE_SIZE=2048", "DAOS_MD_CAP=1024"]
# keys DAOS accepts that a description cannot say: import must stop at them
UNSUPPORTED = [("fault_path", "/rack1/n1"), ("bdev_exclude", ["0000:99:00.0"]), ("hyperthreads", True),
               ("control_iface", "eth9"), ("socket_dir", "/run/daos")]
DEFAULTS = [("disable_vfio", False), ("hyperthreads", False), ("bdev_exclude", []), ("socket_dir", "/var/run/daos_server"),
            ("allow_thp", False)]


def drive(e, t, j):
    return "0000:%02x:%02x.0" % (0x21 + 0x80 * e + t, j)


def gen_engine(rng, i, neng, shape):
    e = {"targets": shape["targets"]}
    if shape["helpers"] is not None:
        e["nr_xs_helpers"] = shape["helpers"]
    if shape["place"] == "pin" or (shape["place"] == "none" and neng > 1):
        e["pinned_numa_node"] = i
    elif shape["place"] == "fc":
        e["first_core"] = i * shape["cpn"] + shape["os"]
    e["fabric_iface"] = "%s%d" % (shape["ifprefix"], i)
    e["fabric_iface_port"] = shape["port"] + 1000 * i + (rng.choice([0, 0, 0, 7]) if i else 0)
    if shape["log_mask"]:
        e["log_mask"] = shape["log_mask"]
    if shape["log_file"] == "default":
        e["log_file"] = "/var/log/daos/daos_engine.%d.log" % i
    elif shape["log_file"] == "tmp":
        e["log_file"] = "/tmp/daos_engine.%d.log" % i
    env = list(shape["env"]) + ([rng.choice(ENVS)] if rng.random() < 0.3 else [])
    if shape["gid"] is not None:
        env.append("FI_VERBS_GID_IDX=%d" % shape["gid"])
    if env:
        e["env_vars"] = sorted(set(env))
    st = []
    if shape["scm"] == "dcpm":
        st.append({"class": "dcpm", "scm_list": ["/dev/pmem%d" % i], "scm_mount": "/mnt/daos%d" % i})
    else:
        t = {"class": "ram", "scm_mount": shape["mount"] % i if "%d" in shape["mount"] else shape["mount"]}
        if shape["scm_size"]:
            t["scm_size"] = shape["scm_size"]
        st.append(t)
    for t, (n, roles) in enumerate(shape["tiers"]):
        tier = {"class": "nvme", "bdev_list": [drive(i, t, j) for j in range(n)]}
        if roles:
            tier["bdev_roles"] = roles
        st.append(tier)
    if shape["file"]:
        st.append({"class": "file", "bdev_list": ["/tmp/daos-bdev%d" % i], "bdev_size": shape["file"]})
    e["storage"] = st
    return e


def gen_shape(rng):
    neng = rng.choice([1, 1, 2, 2, 2, 4])
    targets = rng.choice([4, 8, 16])
    file = rng.choice([4, 16]) if rng.random() < 0.08 else None  # NVMe emulated on a file (class file)
    tiers = rng.choice([[], [(2, None)], [(2, ["wal", "meta", "data"])], [(1, ["wal", "meta"]), (2, ["data"])],
                        [(1, ["wal"]), (1, ["meta"]), (2, ["data"])]] + ([[(1, None), (1, None)]] if rng.random() < 0.1 else []))
    if file:
        tiers = []
    scm = rng.choice(["ram", "ram", "dcpm"])
    if scm == "dcpm" and any(r for _, r in tiers):
        scm = "ram"
    return {
        "neng": neng, "targets": targets, "helpers": rng.choice([None, 0, 2, 4]),
        "place": rng.choice(["pin", "pin", "fc", "none"]), "cpn": rng.choice([24, 32, 64]), "os": rng.choice([0, 2, 4]),
        "ifprefix": rng.choice(["eth", "ib", "hsn"]), "port": rng.choice([31416, 31416, 20000]),
        "log_mask": rng.choice([None, "ERR", "INFO", "ERR,MGMT=DEBUG"]), "log_file": rng.choice([None, "default", "tmp"]),
        "env": rng.sample(ENVS, rng.choice([0, 1, 2])), "gid": rng.choice([None, None, 3]),
        "scm": scm, "scm_size": rng.choice([None, 16, 32, 64]), "mount": rng.choice(["/mnt/daos%d", "/mnt/daos%d", "/mnt/d%d"]),
        "tiers": tiers, "file": file,
    }


def gen_system(rng, release):
    shape = gen_shape(rng)
    nnodes = rng.choice([1, 1, 2, 3])
    hosts = ["srv%02d" % (k + 1) for k in range(nnodes)]
    aps = hosts[:1] if nnodes < 3 else hosts[:3]
    top = {"name": rng.choice(["daos_server", "tier0", "prod-a"]),
           ("mgmt_svc_replicas" if release == "2.8" else "access_points"): [
               h + (":10001" if rng.random() < 0.2 else "") for h in aps],
           "provider": rng.choice(PROVIDERS)}
    if rng.random() < 0.2:
        top["port"] = 10001
    if rng.random() < 0.4:
        top["transport_config"] = {"allow_insecure": True}
    for k, vals in [("control_log_mask", ["INFO", "DEBUG", "ERROR"]), ("control_log_file", ["/tmp/daos_server.log"]),
                    ("telemetry_port", [9191, 9292]), ("crt_timeout", [60]), ("system_ram_reserved", [16, 32])]:
        if rng.random() < 0.3:
            top[k] = rng.choice(vals)
    if any(r for _, r in shape["tiers"]) and rng.random() < 0.95:
        top["control_metadata"] = {"path": "/var/daos/config"}
    if shape["gid"] is not None and rng.random() < 0.9:
        top["client_env_vars"] = ["FI_VERBS_GID_IDX=%d" % shape["gid"]]
    if rng.random() < 0.2:
        k, v = rng.choice(DEFAULTS)
        top[k] = v
    if rng.random() < 0.05:  # a description's client_env (issue 38) imports
        top["client_env_vars"] = top.get("client_env_vars", []) + ["FI_UNIVERSE_SIZE=2048"]
    # what import must refuse (DAOS accepts it, a description cannot say it):
    # an unsupported key, or nodes that disagree on the system's name
    refuse = set()
    if rng.random() < 0.1:
        k, v = rng.choice(UNSUPPORTED)
        top[k] = v
        refuse.add(k)
    docs = []
    for k in range(nnodes):
        d = copy.deepcopy(top)
        d["engines"] = [gen_engine(rng, i, shape["neng"], shape) for i in range(shape["neng"])]
        docs.append(d)
    variant = rng.choice(["same", "same", "drive", "targets", "name"]) if nnodes > 1 else "same"
    if variant == "drive":  # a failed drive on the last node
        for t in docs[-1]["engines"][-1]["storage"][1:]:
            if len(t["bdev_list"]) > 1:
                t["bdev_list"].pop()
                break
    elif variant == "targets":
        for e in docs[-1]["engines"]:
            e["targets"] = e["targets"] * 2 if e["targets"] < 16 else 4
    elif variant == "name":
        docs[-1]["name"] = "other"
        refuse.add("name")
    # engine 0's fabric keys at the top level, which DAOS copies into an
    # engine whose own are absent, an empty interface or a zero port
    # (FabricConfig.Update, src/control/server/engine/config.go)
    fabric_at = rng.choice(["engine"] * 6 + ["top-iface", "top-port", "top-both", "top-empty"])
    for d in docs if fabric_at != "engine" else ():
        e0 = d["engines"][0]
        if fabric_at in ("top-iface", "top-both", "top-empty"):
            d["fabric_iface"] = e0["fabric_iface"]
            if fabric_at == "top-empty":
                e0["fabric_iface"] = ""
            else:
                del e0["fabric_iface"]
        if fabric_at in ("top-port", "top-both", "top-empty"):
            d["fabric_iface_port"] = e0["fabric_iface_port"]
            if fabric_at == "top-empty":
                e0["fabric_iface_port"] = 0
            else:
                del e0["fabric_iface_port"]
    return docs, hosts, variant + ("" if fabric_at == "engine" else " " + fabric_at), refuse


def main(argv):
    dslc = os.path.abspath(argv[0])
    count = int(argv[argv.index("--count") + 1]) if "--count" in argv else int(os.environ.get("IMPORT_COUNT", "300"))
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 26
    keep = argv[argv.index("--keep") + 1] if "--keep" in argv else None
    if not daos_loader.available("import-diff"):
        return daos_loader.ABSENT_STATUS
    tmp = keep or tempfile.mkdtemp(prefix="dslc-import-")
    os.makedirs(tmp, exist_ok=True)
    st = Stats()
    passed = lambda ok, what: print(("ok   " if ok else "FAIL ") + what)
    # 1. DAOS's example configs
    for release in ("2.6", "2.8"):
        for name in sorted(os.listdir(os.path.join(EXAMPLES, release))):
            f = os.path.join(EXAMPLES, release, name)
            doc = yaml.safe_load(open(f))
            aps = [a.split(":")[0] for a in doc.get("mgmt_svc_replicas") or doc.get("access_points") or []]
            before = len(st.fail)
            check_system(dslc, [f] * len(aps), aps, release, tmp, st, "DAOS %s %s" % (release, name), expect_profiles=1)
            passed(len(st.fail) == before and st.same, "DAOS %s %s as %s: the same engines, hugepages and tiers" % (release, name, ",".join(aps)))
    # 2. dslc's own examples, every node of each together
    for ex, profiles in (("hgx-b200", 1), ("aurora-like", 1), ("md-on-ssd", 1)):
        out = os.path.join(tmp, "ex-" + ex)
        shutil.rmtree(out, ignore_errors=True)
        b = run([dslc, "build", os.path.join(ROOT, "examples", ex, "cluster.dsl"), "-o", out])
        release = re.search(r"^daos (\S+)", open(os.path.join(ROOT, "examples", ex, "cluster.dsl")).read(), re.M).group(1)
        hosts = sorted(h for h in os.listdir(os.path.join(out, "nodes"))
                       if os.path.exists(os.path.join(out, "nodes", h, "etc", "daos", "daos_server.yml")))
        files = [os.path.join(out, "nodes", h, "etc", "daos", "daos_server.yml") for h in hosts]
        before, same = len(st.fail), st.same
        if b.returncode != 0:
            st.fail.append("%s does not build" % ex)
        else:
            check_system(dslc, files, hosts, release, tmp, st, "examples/" + ex, expect_profiles=profiles)
        passed(len(st.fail) == before and st.same > same,
               "examples/%s: %d nodes import into %d profile, DAOS reads each node's file the same" % (ex, len(hosts), profiles))
    # 3. generated systems
    rng = random.Random(seed)
    before = len(st.fail)
    base = dict(vars(st))
    for k in range(count):
        release = rng.choice(["2.6", "2.8"])
        docs, hosts, variant, refuse = gen_system(rng, release)
        d = os.path.join(tmp, "gen%03d" % k)
        os.makedirs(d, exist_ok=True)
        files = []
        for h, doc in zip(hosts, docs):
            f = os.path.join(d, h + ".yml")
            open(f, "w").write(yaml.safe_dump(doc, sort_keys=False))
            files.append(f)
        check_system(dslc, files, hosts, release, d, st, "generated %d (%s, %d node%s)" % (k, variant, len(hosts), "s" if len(hosts) > 1 else ""),
                     refuse=refuse)
        if not keep:
            shutil.rmtree(d, ignore_errors=True)
    n = st.n - base["n"]
    passed(len(st.fail) == before, "%d generated systems: %d imported and read the same by DAOS (%d after dslc-only findings), "
           "%d refused by DAOS and not imported, %d stopped at a located import finding %s; "
           "%d imported as several profiles, %d with a node's drives excluded"
           % (n, st.same - base["same"], st.own - base["own"], st.refused_daos - base["refused_daos"],
              st.refused_import - base["refused_import"], dict(sorted(st.keys.items())), st.multi - base["multi"],
              st.excluded - base["excluded"]))
    for f in st.fail[:15]:
        print("  " + f)
    if not keep:
        shutil.rmtree(tmp, ignore_errors=True)
    print("import_diff: %d systems, %d failed" % (st.n, len(st.fail)))
    return 1 if st.fail else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except daos_loader.LoaderBroken as e:  # the oracle failing is a failure, never a rejection
        print(f"FAIL import-diff: {e}")
        sys.exit(1)
