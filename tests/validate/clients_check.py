#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""The client side of a build, checked by its consumers where they run here:

- every dfuse service by systemd itself: `systemd-analyze verify --root` over a
  root holding the host's units and stand-ins for dfuse, fusermount3 and
  daos_agent (verify refuses a unit whose ExecStart is not executable);
  `systemctl --root preset` must enable it through dslc's preset file alone
  (a 99-default.preset disables everything else); `systemd-tmpfiles --root
  --create` must make each mount point owned by the mount's account;
- unit names against `systemd-escape -p` over 120 generated paths of every
  shape the language allows (depth, '-', '.', '_', digits);
- daos_agent.yml of client-only nodes against the agent's key set, copied
  from DAOS release/2.6 src/control/cmd/daos_agent/config.go:45-79 and
  src/control/security/config.go:38-54 (yaml.UnmarshalStrict refuses any
  other key), and fabric_ifaces against the node type's storage NICs;
- etc/nccl.conf against NCCL's documented syntax (NCCL_<NAME>=<value> lines;
  NCCL_IB_HCA a list with optional '^' and '=' prefixes, docs.nvidia.com
  nccl user-guide env.html) and the storage NICs' RDMA devices;
- etc/fuse.conf exactly where a multi-user mount is.
Each check says skip when its tool is missing. Prints ok/FAIL lines.

usage: clients_check.py DSLC
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

from report import Report, build

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, "examples", "hgx-b200")
HARDWARE = os.path.join(ROOT, "examples", "hgx-b200", "hardware.dsl")
AGENT_KEYS = {"name", "access_points", "port", "runtime_dir", "log_file", "control_log_mask", "transport_config",
              "disable_caching", "cache_expiration", "disable_auto_evict", "enable_evict_on_start",
              "exclude_fabric_ifaces", "fabric_ifaces", "telemetry_port", "telemetry_enabled", "telemetry_retain"}
TRANSPORT_KEYS = {"allow_insecure", "client_cert_dir", "ca_cert", "cert", "key"}
HCA_LIST = re.compile(r"^\^?=?[A-Za-z0-9_.-]+(:[0-9]+)?(,[A-Za-z0-9_.-]+(:[0-9]+)?)*$")

REPORT = Report("clients")
check, skip = REPORT.check, REPORT.skip


def fake_root(tmp):
    """A root for systemd's offline tools: the host's units, stand-in binaries, an account."""
    root = os.path.join(tmp, "root")
    units = os.path.join(root, "usr/lib/systemd/system")
    os.makedirs(units)
    for d in ("/lib/systemd/system", "/usr/lib/systemd/system"):
        if os.path.isdir(d):
            shutil.copytree(d, units, dirs_exist_ok=True, symlinks=True)
            break
    with open(os.path.join(units, "daos_agent.service"), "w") as f:
        f.write("[Unit]\nDescription=DAOS agent (stand-in)\n[Service]\nExecStart=/usr/bin/daos_agent\n"
                "[Install]\nWantedBy=multi-user.target\n")
    os.makedirs(os.path.join(root, "usr/bin"))
    for b in ("dfuse", "fusermount3", "daos_agent"):
        p = os.path.join(root, "usr/bin", b)
        with open(p, "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(p, 0o755)
    os.makedirs(os.path.join(root, "usr/lib/systemd/system-preset"))
    with open(os.path.join(root, "usr/lib/systemd/system-preset/99-default.preset"), "w") as f:
        f.write("disable *\n")
    os.makedirs(os.path.join(root, "etc"))
    with open(os.path.join(root, "etc/passwd"), "w") as f:
        f.write("root:x:0:0:root:/root:/bin/sh\ndserve:x:4242:4242::/nonexistent:/usr/sbin/nologin\n")
    with open(os.path.join(root, "etc/group"), "w") as f:
        f.write("root:x:0:\ndserve:x:4242:\n")
    return root


def node_root(base, node_dir, tmp, name):
    root = os.path.join(tmp, name)
    shutil.copytree(base, root, symlinks=True)
    shutil.copytree(os.path.join(node_dir, "etc"), os.path.join(root, "etc"), dirs_exist_ok=True)
    return root


def systemd_checks(out, tmp):
    if not shutil.which("systemd-analyze") or not shutil.which("systemctl"):
        skip("systemd", "systemd-analyze or systemctl is not installed")
        return
    base = fake_root(tmp)
    for node in ("gpu001", "cn01"):
        nd = os.path.join(out, "nodes", node)
        root = node_root(base, nd, tmp, "r-" + node)
        unit_dir = os.path.join(root, "etc/systemd/system")
        units = sorted(u for u in os.listdir(unit_dir) if u.startswith("dfuse-"))
        check("%s has a dfuse service" % node, len(units) == 1, str(units))
        for u in units:
            r = subprocess.run(["systemd-analyze", "verify", "--root=" + root, "/etc/systemd/system/" + u],
                               capture_output=True, text=True)
            check("systemd-analyze verify accepts %s/%s" % (node, u), r.returncode == 0 and not r.stderr.strip(),
                  r.stderr.strip()[:300])
            r = subprocess.run(["systemctl", "--root=" + root, "preset", u], capture_output=True, text=True)
            st = subprocess.run(["systemctl", "--root=" + root, "is-enabled", u], capture_output=True, text=True)
            check("systemctl preset enables %s/%s through 50-dslc-dfuse.preset" % (node, u),
                  st.stdout.strip() == "enabled", st.stdout + st.stderr)
        if shutil.which("systemd-tmpfiles"):
            r = subprocess.run(["systemd-tmpfiles", "--root=" + root, "--create", os.path.join(root, "etc/tmpfiles.d/dslc-dfuse.conf")],
                               capture_output=True, text=True)
            mp = os.path.join(root, "mnt/daos/training")
            ok = r.returncode == 0 and os.path.isdir(mp) and os.stat(mp).st_uid == 4242
            check("systemd-tmpfiles makes %s's mount point, owned by dserve" % node, ok, r.stderr.strip()[:300])
        else:
            skip("tmpfiles", "systemd-tmpfiles is not installed")


def escape_differential(dslc, tmp):
    if not shutil.which("systemd-escape"):
        skip("escape", "systemd-escape is not installed")
        return
    rnd = random.Random(24)
    alphabet = "abcxyzABZ019._-"
    paths = []
    for i in range(120):
        comps = ["m%d" % i]  # a unique first component: no path inside another
        for _ in range(rnd.randint(0, 4)):
            first = rnd.choice("abcXYZ0129_")  # a component starts with neither '.' nor '-'
            comps.append(first + "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 12))))
        paths.append("/" + "/".join(comps))
    src = os.path.join(tmp, "escape.dsl")
    with open(os.path.join(EXAMPLE, "cluster.dsl")) as f:
        text = f.read()
    with open(src, "w") as f:
        f.write(text)  # its include names hardware.dsl, copied beside it
        for p in paths:
            f.write("mount %s {\n  container training in tier0\n  on cn01\n  user dserve\n}\n" % p)
    for x in ("hardware.dsl", "hgx-b200.xml"):
        shutil.copy(os.path.join(os.path.dirname(HARDWARE), x), tmp)
    out = os.path.join(tmp, "escape-out")
    rc, err = build(dslc, src, out)
    check("a description with 120 more mounts builds", rc == 0, err[-300:])
    if rc:
        return
    units = set(os.listdir(os.path.join(out, "nodes/cn01/etc/systemd/system")))
    r = subprocess.run(["systemd-escape", "-p", "--suffix=service"] + paths, capture_output=True, text=True)
    want = {"dfuse-" + n for n in r.stdout.split()}
    missing = sorted(want - units)
    check("120 unit names are dfuse- + systemd-escape -p of their paths", not missing and len(want) == 120,
          "missing: %s" % missing[:3])
    # each unit mounts its own path: the name leads back to it
    bad = []
    for u in sorted(want & units):
        with open(os.path.join(out, "nodes/cn01/etc/systemd/system", u)) as f:
            body = f.read()
        m = re.search(r"^ExecStart=/usr/bin/dfuse .*-- (\S+) tier0 training$", body, re.M)
        back = subprocess.run(["systemd-escape", "-p", "-u", u[len("dfuse-"):-len(".service")]],
                              capture_output=True, text=True).stdout.strip()
        if not m or m.group(1) != back:
            bad.append(u)
    check("every unit's ExecStart mounts the path its name unescapes to", not bad, str(bad[:3]))


def agent_checks(out):
    hw = open(HARDWARE).read()
    nics = {}  # storage NIC -> (numa, rdma), from the node type
    numa = None
    for line in hw.splitlines():
        m = re.match(r"\s*numa (\d+) \{", line)
        if m:
            numa = int(m.group(1))
        m = re.match(r"\s*nic\s+(\S+) pci \S+ role storage rdma (\S+)", line)
        if m:
            nics[m.group(1)] = (numa, m.group(2))
    for node in ("cn01", "cn04"):
        d = os.path.join(out, "nodes", node)
        check("client-only %s has no daos_server.yml" % node, not os.path.exists(os.path.join(d, "etc/daos/daos_server.yml")))
        with open(os.path.join(d, "etc/daos/daos_agent.yml")) as f:
            doc = yaml.safe_load(f)
        check("%s's daos_agent.yml has only DAOS agent keys" % node, set(doc) <= AGENT_KEYS, str(set(doc) - AGENT_KEYS))
        check("%s's transport_config has only DAOS's keys" % node, set(doc.get("transport_config", {})) <= TRANSPORT_KEYS)
        seen = {}
        for e in doc.get("fabric_ifaces", []):
            ok = set(e) == {"numa_node", "devices"} and isinstance(e["numa_node"], int)
            for dev in e.get("devices", []):
                ok = ok and set(dev) == {"iface", "domain"}
                seen[dev.get("iface")] = (e.get("numa_node"), dev.get("domain"))
            check("%s fabric_ifaces entry for NUMA %s has DAOS's shape" % (node, e.get("numa_node")), ok, str(e))
        check("%s's agent pins each NUMA node to its own storage NICs" % node, seen == nics, "%s vs %s" % (seen, nics))


def nccl_checks(out):
    storage = sorted(re.findall(r"role storage rdma (\S+)", open(HARDWARE).read()))
    for node in ("gpu001", "gpu007"):
        p = os.path.join(out, "nodes", node, "etc/nccl.conf")
        check("%s has etc/nccl.conf" % node, os.path.exists(p))
        if not os.path.exists(p):
            continue
        lines = [l for l in open(p).read().splitlines() if l and not l.startswith("#")]
        check("%s nccl.conf lines are NCCL_<NAME>=<value>" % node,
              all(re.match(r"^NCCL_[A-Z0-9_]+=\S+$", l) for l in lines), str(lines))
        hca = dict(l.split("=", 1) for l in lines).get("NCCL_IB_HCA", "")
        check("%s NCCL_IB_HCA is a list NCCL parses" % node, bool(HCA_LIST.match(hca)), hca)
        check("%s NCCL_IB_HCA excludes exactly the storage NICs' devices" % node,
              hca.startswith("^=") and sorted(hca[2:].split(",")) == storage, hca)
    check("client-only nodes get no nccl.conf", not os.path.exists(os.path.join(out, "nodes/cn01/etc/nccl.conf")))


def fuse_conf_checks(out, dslc, tmp):
    for node in ("gpu001", "cn02"):
        p = os.path.join(out, "nodes", node, "etc/fuse.conf")
        ok = os.path.exists(p) and "user_allow_other" in open(p).read().split()
        check("%s (multi-user mount) has fuse.conf with user_allow_other" % node, ok)
    # intercept pil4dfs: the per-job wrapper (issue 38), on the nodes of the mount that asks
    wrap = os.path.join(out, "nodes/cn01/usr/local/bin/with-pil4dfs")
    gpu_wrap = os.path.join(out, "nodes/gpu001/usr/local/bin/with-pil4dfs")
    check("intercept goes to the client nodes' mount only, as the wrapper with-pil4dfs (0755), no profile.d file",
          os.path.exists(wrap) and not os.path.exists(gpu_wrap) and os.stat(wrap).st_mode & 0o777 == 0o755
          and not os.path.exists(os.path.join(out, "nodes/cn01/etc/profile.d/dslc-daos-intercept.sh")))
    if os.path.exists(wrap) and shutil.which("sh"):
        r = subprocess.run(["sh", wrap, "sh", wrap, "sh", "-c", 'printf %s "$LD_PRELOAD"'], capture_output=True,
                           text=True, env={"LD_PRELOAD": "libfoo.so", "PATH": os.environ.get("PATH", "/usr/bin:/bin")})
        check("the wrapper run twice (a launcher that wraps again) preloads libpil4dfs once, before what was there",
              r.stdout == "libpil4dfs.so:libfoo.so", r.stdout + r.stderr)
        if shutil.which("shellcheck"):
            r = subprocess.run(["shellcheck", "-s", "sh", wrap], capture_output=True, text=True)
            check("the wrapper passes shellcheck", r.returncode == 0, r.stdout)
    # with `global`: the login-shell form
    src = open(os.path.join(EXAMPLE, "cluster.dsl")).read().replace("  intercept pil4dfs\n", "  intercept pil4dfs global\n")
    gdir = os.path.join(tmp, "global")
    os.makedirs(gdir)
    shutil.copy(os.path.join(EXAMPLE, "hgx-b200.xml"), gdir)
    open(os.path.join(gdir, "hardware.dsl"), "w").write(open(os.path.join(EXAMPLE, "hardware.dsl")).read())
    open(os.path.join(gdir, "cluster.dsl"), "w").write(src)
    rc, err = build(dslc, os.path.join(gdir, "cluster.dsl"), os.path.join(gdir, "out"))
    il = os.path.join(gdir, "out/nodes/cn01/etc/profile.d/dslc-daos-intercept.sh")
    check("intercept pil4dfs global writes the profile.d file (exit 0)", rc == 0 and os.path.exists(il), err[-300:])
    if os.path.exists(il) and shutil.which("sh"):
        r = subprocess.run(["sh", "-c", ". %s; . %s; printf %%s \"$LD_PRELOAD\"" % (il, il)], capture_output=True,
                           text=True, env={"LD_PRELOAD": "libfoo.so"})
        check("sourcing the profile.d file twice preloads libpil4dfs once, before what was there",
              r.stdout == "libpil4dfs.so:libfoo.so", r.stdout + r.stderr)


def caching_flags(dslc, tmp):
    """Each `caching` value as dfuse's own flag (src/client/dfuse/dfuse_main.c options:
    --disable-caching turns every cache off, --disable-wb-cache keeps reads cached and
    writes through), on the mount of the GPU nodes, the others left as written."""
    text = open(os.path.join(EXAMPLE, "cluster.dsl")).read()
    old = "  caching off                             # read-write from 18 nodes: --disable-caching\n"
    if old not in text:
        check("caching: the example's GPU mount has its caching line", False)
        return
    for value, want, absent in (("off", "--disable-caching", "--disable-wb-cache"),
                                ("write-through", "--disable-wb-cache", "--disable-caching"),
                                ("on", None, "--disable")):
        ex = os.path.join(tmp, f"ex-caching-{value}")  # a copy: its includes are relative
        shutil.copytree(EXAMPLE, ex)
        src = os.path.join(ex, "cluster.dsl")
        open(src, "w").write(text.replace(old, f"  caching {value}\n"))
        out = os.path.join(tmp, f"caching-{value}")
        rc, err = build(dslc, src, out)
        units = os.path.join(out, "nodes/gpu001/etc/systemd/system")
        execs = [l for f in (os.listdir(units) if os.path.isdir(units) else []) if f.startswith("dfuse")
                 for l in open(os.path.join(units, f)).read().splitlines() if l.startswith("ExecStart=")]
        check(f"caching {value}: gpu001's dfuse runs {want or 'with every cache'}",
              rc == 0 and len(execs) == 1 and (want is None or want in execs[0].split()) and absent not in execs[0],
              (rc, err[-200:], execs))


AURORA = os.path.join(ROOT, "examples", "aurora-like")


def lint_variant(dslc, tmp, name, edit):
    """aurora-like with one edit, linted: (exit status, output)."""
    d = os.path.join(tmp, name)
    shutil.copytree(AURORA, d)
    src = os.path.join(d, "cluster.dsl")
    text = open(src).read()
    new = edit(text)
    if new == text:
        return -1, "the edit did not apply"
    open(src, "w").write(new)
    r = subprocess.run([dslc, "lint", src], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def mpiio_checks(dslc, tmp):
    """Issue 56 item 3: the aurora-like example's MPI-IO and HDF5 settings, per job through
    with-daos-io, read by MPICH's ROMIO where it is installed (mpich, libmpich-dev)."""
    out = os.path.join(tmp, "aurora")
    rc, err = build(dslc, os.path.join(AURORA, "cluster.dsl"), out)
    hints = os.path.join(out, "nodes/uan001/etc/daos/romio-hints")
    wrap = os.path.join(out, "nodes/uan001/usr/local/bin/with-daos-io")
    check("aurora-like builds, uan001 gets etc/daos/romio-hints and with-daos-io (0755), the servers neither",
          rc == 0 and os.path.exists(hints) and os.path.exists(wrap) and os.stat(wrap).st_mode & 0o777 == 0o755
          and not os.path.exists(os.path.join(out, "nodes/daos0001/usr/local/bin/with-daos-io"))
          and not os.path.exists(os.path.join(out, "nodes/daos0001/etc/daos/romio-hints")), err[-300:])
    if rc != 0:
        return
    lines = [l for l in open(hints).read().splitlines() if l and not l.startswith("#")]
    check("the hints file: one `key value` per line, the example's three hints, under ROMIO's 4 KiB",
          sorted(lines) == ["romio_cb_read enable", "romio_cb_write enable", "romio_daos_obj_class EC_16P2GX"]
          and os.path.getsize(hints) < 4096, lines)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HDF5_PLUGIN_PATH": "/opt/site/plugins"}
    show = ["sh", "-c", 'printf "%s|%s|%s" "$ROMIO_HINTS" "$HDF5_VOL_CONNECTOR" "$HDF5_PLUGIN_PATH"']
    r = subprocess.run(["sh", wrap, "sh", wrap] + show, capture_output=True, text=True, env=env)
    check("with-daos-io run twice: ROMIO_HINTS names the file, HDF5_VOL_CONNECTOR=daos, the VOL's directory once, first",
          r.stdout == "/etc/daos/romio-hints|daos|/usr/lib64/mpich/lib:/opt/site/plugins", r.stdout + r.stderr)
    r = subprocess.run(["sh", wrap] + show, capture_output=True, text=True, env=dict(env, ROMIO_HINTS="/home/u/hints"))
    check("a job's own ROMIO_HINTS wins", r.stdout.startswith("/home/u/hints|"), r.stdout + r.stderr)
    r = subprocess.run(["sh", wrap], capture_output=True, text=True, env=env)
    check("with-daos-io without a program: usage, exit 2", r.returncode == 2 and "usage: with-daos-io" in r.stderr, r.stderr)
    if shutil.which("shellcheck"):
        r = subprocess.run(["shellcheck", "-s", "sh", wrap], capture_output=True, text=True)
        check("with-daos-io passes shellcheck", r.returncode == 0, r.stdout)
    # MPICH's ROMIO reads the file the wrapper names: the hints come back from MPI_File_get_info
    if shutil.which("mpicc") and shutil.which("mpiexec"):
        probe = os.path.join(tmp, "romio-probe")
        r = subprocess.run(["mpicc", os.path.join(ROOT, "tests/oracle/romio/probe.c"), "-o", probe], capture_output=True, text=True)
        local = os.path.join(tmp, "with-daos-io")
        open(local, "w").write(open(wrap).read().replace("/etc/daos/romio-hints", hints))
        r2 = subprocess.run(["timeout", "120", "mpiexec", "-n", "2", "sh", local, probe, os.path.join(tmp, "romio-file")],
                            capture_output=True, text=True, env=env) if r.returncode == 0 else r
        got = dict(l.split(" ", 1) for l in r2.stdout.splitlines() if " " in l)
        check("MPICH's ROMIO, run through with-daos-io, opens a file with romio_cb_write and romio_cb_read enable",
              r2.returncode == 0 and got.get("romio_cb_write") == "enable" and got.get("romio_cb_read") == "enable",
              (r2.stdout + r2.stderr)[-400:])
        r3 = subprocess.run(["timeout", "120", "mpiexec", "-n", "2", probe, os.path.join(tmp, "romio-file2")],
                            capture_output=True, text=True, env=env) if r.returncode == 0 else r
        got3 = dict(l.split(" ", 1) for l in r3.stdout.splitlines() if " " in l)
        check("without the wrapper the same job keeps ROMIO's defaults (automatic): the hints reach only wrapped jobs",
              r3.returncode == 0 and got3.get("romio_cb_write") == "automatic", (r3.stdout + r3.stderr)[-400:])
    elif os.environ.get("CI") == "true":
        check("MPICH (mpicc, mpiexec) is installed in CI (scripts/install-deps.sh)", False)
    else:
        skip("romio", "MPICH is not installed (scripts/install-deps.sh installs mpich and libmpich-dev)")
    # the findings: HDF5's variables through the agent, a hint's class, two mounts that disagree
    rc, o = lint_variant(dslc, tmp, "env", lambda t: t.replace("  fabric        slingshot", "  fabric        slingshot\n  client_env HDF5_VOL_CONNECTOR=daos", 1))
    check("client_env HDF5_VOL_CONNECTOR=daos: error[client-env] (HDF5 picks its connector before daos_init), help names hdf5_vol",
          rc == 1 and re.search(r"error\[client-env\]: HDF5_VOL_CONNECTOR in client_env: HDF5 picks its connector", o)
          and "hdf5_vol" in o, o[-600:])
    rc, o = lint_variant(dslc, tmp, "cls", lambda t: t.replace("romio_daos_obj_class EC_16P2GX", "romio_daos_obj_class EC_16P1GX"))
    check("romio_daos_obj_class EC_16P1GX on a tolerate-2 container: error[oclass-tolerance] at the hint",
          rc == 1 and re.search(r"cluster.dsl:\d+:5: error\[oclass-tolerance\]: EC_16P1GX", o), o[-600:])
    second = ("\nmount /mnt/daos/more {\n  container datasets in projects\n  on uan[001-002]\n  user daos_user\n"
              "  multi_user true\n  caching off\n  mpiio { romio_cb_write disable }\n  hdf5_vol \"/opt/vol\"\n}\n")
    rc, o = lint_variant(dslc, tmp, "two", lambda t: t + second)
    check("a second mount of uan001 with other hints: error[mpiio-conflict] at its block, the other noted",
          rc == 1 and re.search(r"error\[mpiio-conflict\]: uan001 gets two sets of ROMIO hints", o) and "note: the other" in o,
          o[-600:])
    rc, o = lint_variant(dslc, tmp, "rel", lambda t: t.replace('hdf5_vol "/usr/lib64/mpich/lib"', 'hdf5_vol "lib/vol"'))
    check("hdf5_vol with a relative directory: error[bad-value] at it",
          rc != 0 and "error[bad-value]: hdf5_vol 'lib/vol'" in o, o[-400:])


def main():
    dslc = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        rc, err = build(dslc, os.path.join(EXAMPLE, "cluster.dsl"), out)
        check("the reference example builds", rc == 0, err[-300:])
        if rc == 0:
            agent_checks(out)
            nccl_checks(out)
            fuse_conf_checks(out, dslc, tmp)
            systemd_checks(out, tmp)
        escape_differential(dslc, tmp)
        caching_flags(dslc, tmp)
        mpiio_checks(dslc, tmp)
    REPORT.end()


main()
