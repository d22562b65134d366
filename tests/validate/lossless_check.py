#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Lossless RoCE (issue 56 item 1), held against its consumers where they run
here and against fakes written from their sources where they do not:

- usr/local/sbin/dslc-lossless-roce runs against tests/fakes/dcb (iproute2's
  dcb) and tests/fakes/rdma_cm (modprobe rdma_cm and configfs's rdma_cm
  mkdir, drivers/infiniband/core/cma_configfs.c) on a sysfs laid out as mlx5
  lays out its ECN switches (class/net/NIC/ecn/roce_np|roce_rp/enable/<prio>):
  every state the node passes through (rdma_cm loaded or not, iproute2 with
  and without apptrust, a driver without ECN switches, a NIC without DCB, a
  NIC that is not the node's, run twice);
- the unit template and the preset by systemd itself (systemd-analyze verify
  over an instance, systemctl --root preset enabling one per NIC);
- shellcheck on the script; DAOS's loader on daos_server.yml with UCX;
- the roce-lossless findings.

usage: lossless_check.py DSLC   (prints ok/FAIL/skip lines)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import daos_loader  # noqa: E402
from report import Report, build  # noqa: E402

EXAMPLE = os.path.join(ROOT, "examples", "hgx-b200")
FAKES = os.path.join(ROOT, "tests", "fakes")
REPORT = Report("lossless")
check = REPORT.check


def variant(tmp, name, edit):
    d = os.path.join(tmp, name)
    shutil.copytree(EXAMPLE, d)
    src = os.path.join(d, "cluster.dsl")
    text = open(src).read()
    new = edit(text)
    assert new != text, "the edit of %s did not apply" % name
    open(src, "w").write(new)
    return src


class Node:
    """A fake node for the script: a sysfs with mlx5's ECN switches, a
    configfs, the fakes on PATH."""

    def __init__(self, tmp, name, ecn=True, rdma_cm=True, apptrust=True, dcb_devs="ens1f0np0 ens2f0np0"):
        self.d = os.path.join(tmp, name)
        self.sysfs, self.cfs, self.bin = (os.path.join(self.d, x) for x in ("sys", "config", "bin"))
        for nic in ("ens1f0np0", "ens2f0np0"):
            for side in ("roce_np", "roce_rp"):
                e = os.path.join(self.sysfs, "class/net", nic, "ecn", side, "enable")
                os.makedirs(e)
                for p in range(8):
                    if ecn:
                        open(os.path.join(e, str(p)), "w").write("0\n")
            if not ecn:
                shutil.rmtree(os.path.join(self.sysfs, "class/net", nic, "ecn"))
        os.makedirs(os.path.join(self.cfs, "rdma_cm") if rdma_cm else self.cfs)
        os.makedirs(self.bin)
        os.symlink(os.path.join(FAKES, "dcb"), os.path.join(self.bin, "dcb"))
        for n in ("modprobe", "mkdir"):
            os.symlink(os.path.join(FAKES, "rdma_cm"), os.path.join(self.bin, n))
        self.env = {"PATH": self.bin + ":/usr/bin:/bin", "FAKE_LOG": os.path.join(self.d, "log"),
                    "FAKE_DCB_STATE": os.path.join(self.d, "dcb.json"), "FAKE_DCB_DEVS": dcb_devs,
                    "FAKE_CONFIGFS": self.cfs, "FAKE_RDMA_DEVS": "mlx5_0 mlx5_1 mlx5_2",
                    "DSLC_SYSFS": self.sysfs, "DSLC_CONFIGFS": self.cfs}
        if apptrust:
            self.env["FAKE_DCB_APPTRUST"] = "1"

    def run(self, script, nic):
        return subprocess.run(["sh", script, nic], capture_output=True, text=True, env=self.env)

    def dcb(self):
        p = self.env["FAKE_DCB_STATE"]
        return json.load(open(p)) if os.path.exists(p) else {}

    def ecn(self, nic, side, prio):
        return open(os.path.join(self.sysfs, "class/net", nic, "ecn", side, "enable", str(prio))).read().strip()

    def tos(self, dev):
        p = os.path.join(self.cfs, "rdma_cm", dev, "ports/1/default_roce_tos")
        return open(p).read().strip() if os.path.exists(p) else None


def script_checks(out, tmp):
    script = os.path.join(out, "nodes/gpu001/usr/local/sbin/dslc-lossless-roce")
    check("gpu001 and cn01 get the script (0755), a unit per fabric NIC and the preset",
          all(os.path.exists(os.path.join(out, "nodes", n, f)) for n in ("gpu001", "cn01") for f in (
              "usr/local/sbin/dslc-lossless-roce", "etc/systemd/system/dslc-lossless-roce-ens1f0np0.service",
              "etc/systemd/system/dslc-lossless-roce-ens2f0np0.service",
              "etc/systemd/system-preset/50-dslc-lossless-roce.preset"))
          and os.stat(script).st_mode & 0o777 == 0o755)
    if shutil.which("shellcheck"):
        r = subprocess.run(["shellcheck", "-s", "sh", script], capture_output=True, text=True)
        check("the script passes shellcheck", r.returncode == 0, r.stdout)
    n = Node(tmp, "fresh", rdma_cm=False)
    r = n.run(script, "ens1f0np0")
    st = n.dcb().get("ens1f0np0", {})
    check("a fresh node: exit 0, PFC on priority 3 only, DSCP 26 to priority 3, DSCP trusted",
          r.returncode == 0 and st.get("pfc") == {str(p): "on" if p == 3 else "off" for p in range(8)}
          and st.get("dscp_prio") == {"26": 3} and st.get("apptrust") == ["dscp"], (r.stderr, st))
    check("... ECN switched on for priority 3 on both sides, the other priorities left",
          n.ecn("ens1f0np0", "roce_np", 3) == "1" and n.ecn("ens1f0np0", "roce_rp", 3) == "1"
          and n.ecn("ens1f0np0", "roce_np", 2) == "0")
    check("... rdma_cm loaded, its configfs group made, RoCE ToS 104 on mlx5_0 (not mlx5_1)",
          n.tos("mlx5_0") == "104" and n.tos("mlx5_1") is None and "modprobe rdma_cm" in open(n.env["FAKE_LOG"]).read(),
          open(n.env["FAKE_LOG"]).read())
    r2 = n.run(script, "ens1f0np0")
    check("run again (the NIC reappears): exit 0, the same settings, no second modprobe",
          r2.returncode == 0 and n.dcb().get("ens1f0np0") == st and n.tos("mlx5_0") == "104"
          and open(n.env["FAKE_LOG"]).read().count("modprobe") == 1, r2.stderr)
    d12 = Node(tmp, "debian12", apptrust=False)
    r = d12.run(script, "ens2f0np0")
    st = d12.dcb().get("ens2f0np0", {})
    check("iproute2 6.1 without apptrust (Debian 12): exit 0, PFC and the DSCP map set, the fallback said",
          r.returncode == 0 and st.get("dscp_prio") == {"26": 3} and "no DCB APP trust" in r.stderr
          and d12.tos("mlx5_1") == "104", (r.stderr, st))
    ice = Node(tmp, "noecn", ecn=False)
    r = ice.run(script, "ens1f0np0")
    check("a driver without ECN switches: exit 0, the rest set, 'ECN stays at the NIC firmware's default' said",
          r.returncode == 0 and "ECN stays at the NIC firmware's default" in r.stderr and ice.tos("mlx5_0") == "104", r.stderr)
    bad = Node(tmp, "nodcb", dcb_devs="ens2f0np0")
    r = bad.run(script, "ens1f0np0")
    check("a NIC whose driver has no DCB: dcb's error, exit 1, nothing after it (no ToS)",
          r.returncode == 1 and "Attribute read: No such device" in r.stderr and bad.tos("mlx5_0") is None, r.stderr)
    r = n.run(script, "eth9")
    check("a NIC that is not a fabric NIC of the node: exit 2, said, nothing set",
          r.returncode == 2 and "eth9 is not a fabric NIC of this node" in r.stderr, r.stderr)


def systemd_checks(out, tmp):
    if not shutil.which("systemd-analyze"):
        REPORT.skip("systemd", "systemd-analyze is not installed")
        return
    root = os.path.join(tmp, "root")
    os.makedirs(os.path.join(root, "etc/systemd/system"))
    shutil.copytree("/lib/systemd/system", os.path.join(root, "usr/lib/systemd/system"), symlinks=True,
                    ignore_dangling_symlinks=True)
    node = os.path.join(out, "nodes/gpu001")
    for f in ("etc/systemd/system/dslc-lossless-roce-ens1f0np0.service", "etc/systemd/system/dslc-lossless-roce-ens2f0np0.service",
              "usr/local/sbin/dslc-lossless-roce",
              "etc/systemd/system-preset/50-dslc-lossless-roce.preset"):
        os.makedirs(os.path.dirname(os.path.join(root, f)), exist_ok=True)
        shutil.copy2(os.path.join(node, f), os.path.join(root, f))
    r = subprocess.run(["systemd-analyze", "verify", "--root=" + root, "dslc-lossless-roce-ens1f0np0.service",
                        "dslc-lossless-roce-ens2f0np0.service"],
                       capture_output=True, text=True)
    noise = [l for l in (r.stdout + r.stderr).splitlines() if "dslc-lossless-roce" in l]
    check("systemd-analyze verify accepts both units (no line about them)", not noise, noise)
    open(os.path.join(root, "etc/systemd/system-preset/99-default.preset"), "w").write("disable *\n")
    r = subprocess.run(["systemctl", "--root=" + root, "preset", "dslc-lossless-roce-ens1f0np0.service",
                        "dslc-lossless-roce-ens2f0np0.service"], capture_output=True, text=True)
    wants = os.path.join(root, "etc/systemd/system/sys-subsystem-net-devices-ens1f0np0.device.wants/dslc-lossless-roce-ens1f0np0.service")
    wants2 = os.path.join(root, "etc/systemd/system/multi-user.target.wants/dslc-lossless-roce-ens2f0np0.service")
    check("systemctl preset enables each NIC's unit, wanted by the NIC's device and multi-user.target",
          r.returncode == 0 and os.path.islink(wants) and os.path.islink(wants2), r.stdout + r.stderr)


def lint_checks(dslc, tmp):
    def lint(src):
        r = subprocess.run([dslc, "lint", src], capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr
    src = variant(tmp, "eth", lambda t: t.replace("fabric roce {", "fabric ethernet {", 1))
    rc, o = lint(src)
    check("lossless on an Ethernet fabric: error[roce-lossless] at the lossless block",
          rc == 1 and re.search(r"cluster.dsl:\d+:5: error\[roce-lossless\]: lossless settings on a ethernet fabric", o), o)
    src = variant(tmp, "nodscp", lambda t: t.replace("lossless { priority 3  dscp 26 }", "lossless { priority 3 }", 1))
    rc, o = lint(src)
    check("lossless without a DSCP: error[roce-lossless], nothing built",
          rc == 1 and "error[roce-lossless]: lossless needs both the PFC priority and the RDMA DSCP" in o
          and build(dslc, src, os.path.join(tmp, "nodscp-out"))[0] == 1, o)
    src = variant(tmp, "ucx", lambda t: t.replace('provider             "ofi+verbs;ofi_rxm"', 'provider             "ucx+rc_x"', 1))
    rc, o = build(dslc, src, os.path.join(tmp, "ucx-out"))
    y = os.path.join(tmp, "ucx-out/nodes/gpu001/etc/daos/daos_server.yml")
    text = open(y).read() if rc == 0 else ""
    check("with UCX: every engine's env_vars and client_env_vars carry UCX_IB_TRAFFIC_CLASS=104 (DSCP 26)",
          text.count("- UCX_IB_TRAFFIC_CLASS=104") == 3, o + text[-300:])
    if rc == 0 and daos_loader.available("lossless"):
        ok, why = daos_loader.run([y])
        check("DAOS's loader accepts that daos_server.yml", ok, why)
    src = variant(tmp, "ucx2", lambda t: t.replace('provider             "ofi+verbs;ofi_rxm"', 'provider             "ucx+rc_x"', 1)
                  .replace("  log_mask             ERR", "  log_mask             ERR\n  env UCX_IB_TRAFFIC_CLASS=96", 1))
    rc, o = lint(src)
    check("a hand-written UCX_IB_TRAFFIC_CLASS=96 (DSCP 24): error[roce-lossless] at it, the lossless settings noted",
          rc == 1 and re.search(r"cluster.dsl:\d+:7: error\[roce-lossless\]: UCX_IB_TRAFFIC_CLASS=96 marks RDMA traffic with DSCP 24", o)
          and "note: the lossless settings" in o, o)


def verbs_check(dslc, tmp):
    """Under verbs UCX reads nothing: a stray UCX_IB_TRAFFIC_CLASS is no finding (one mistake, one true finding)."""
    src = variant(tmp, "verbs-ucxvar", lambda t: t.replace("  log_mask             ERR", "  log_mask             ERR\n  env UCX_IB_TRAFFIC_CLASS=96", 1))
    r = subprocess.run([dslc, "lint", src], capture_output=True, text=True)
    check("under verbs a stray UCX_IB_TRAFFIC_CLASS=96 is no roce-lossless finding (exit 0)",
          r.returncode == 0 and "roce-lossless" not in r.stdout + r.stderr, r.stdout + r.stderr)


def main():
    dslc = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        rc, err = build(dslc, os.path.join(EXAMPLE, "cluster.dsl"), out)
        check("the reference example (lossless priority 3, DSCP 26) builds", rc == 0, err)
        if rc == 0:
            script_checks(out, tmp)
            systemd_checks(out, tmp)
        lint_checks(dslc, tmp)
        verbs_check(dslc, tmp)
    REPORT.end()


main()
