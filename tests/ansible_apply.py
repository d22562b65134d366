#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""out/cluster/ansible/ (issue 72) run by the real Ansible (Debian's
ansible-core; ansible-lint, profile production):

- the built apply.yml passes `ansible-playbook --syntax-check` and
  `ansible-lint --offline --profile production`; inventory.yml reads back
  through `ansible-inventory` with every value as dslc wrote it (its groups,
  ansible_host from the mgmt address, the kernel parameters, nothing
  templated: a value holding "{{" stays text);
- real runs of apply.yml over Ansible's own ssh connection against nodes that
  are root folders (tests/fakes/node/ssh: the command runs in a mount
  namespace where this machine's /etc, /usr, /var and /boot are read only and
  systemctl, shutdown and the grub tools are fakes written from their
  sources), each root laid out as a node is before dslc (os-release, a grub
  default, a site's own networkd unit, DAOS's packaged units):
  the installed tree equals the node's overlay byte for byte and mode for
  mode, files outside the manifest are untouched, a second run reports no
  change; each class runs its commands and no other (networkctl reload,
  the lossless units, systemd-tmpfiles and the dfuse restarts, daos_agent's
  SIGUSR2; grub2-mkconfig, the reboot and the new /proc/cmdline checked
  against the planned parameters; daos_server restarted);
- a second build: `--check --diff` names exactly the node's changed and
  removed files and writes nothing; the real run installs them and removes
  the file the build no longer has, and nothing else;
- refusals: an inventory of another build, a class the playbook does not
  apply, a node whose reboot leaves out a planned parameter, a failed
  restart: the run fails on that host and says why;
- the verify tag: a node's installed file changed by hand is named, the
  untouched node passes.

usage: tests/ansible_apply.py DSLC
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
from doctor_roots import write  # noqa: E402  (tests/ is not a package)
DSLC = os.path.abspath(sys.argv[1])
FAKES = os.path.join(REPO, "tests", "fakes", "node")
IN_CI = bool(os.environ.get("CI"))
NODES = ("gpu005", "cn04")  # a converged server (azurelinux3) and a client-only node
passed = failed = skipped = 0


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   ansible {name}")
    else:
        failed += 1
        print(f"FAIL ansible {name}{': ' + str(detail)[-2500:] if detail else ''}")


def skip(name, why):
    """A consumer that is absent: said, and a failure in CI, which installs it."""
    global skipped
    if IN_CI:
        result(False, name, f"{why} (CI installs it: scripts/install-deps.sh)")
        return
    skipped += 1
    print(f"skip ansible {name}: {why}")


def build(src, out):
    r = subprocess.run([DSLC, "build", src, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"dslc build {src} failed: {r.stderr}")


def make_node(nodes, name, addr):
    """A node before dslc: what its OS and DAOS's packages put there."""
    root = os.path.join(nodes, name, "root")
    write(os.path.join(root, "etc/os-release"), 'NAME="Microsoft Azure Linux"\nVERSION_ID="3.0"\nID=azurelinux\n')
    os.makedirs(os.path.join(root, "etc/default/grub.d"))
    shutil.copy(os.path.join(REPO, "tests/os/grub-defaults/azurelinux3"), os.path.join(root, "etc/default/grub"))
    write(os.path.join(root, "etc/systemd/network/05-site-mgmt.network"), "[Match]\nName=eno1\n[Network]\nDHCP=yes\n")
    write(os.path.join(root, "etc/daos/daos_control.yml"), "name: daos_server\nport: 10001\nhostlist: ['gpu001']\n")
    for unit in ("daos_server.service", "daos_agent.service"):
        write(os.path.join(root, "usr/lib/systemd/system", unit), f"[Unit]\nDescription={unit} (DAOS RPM)\n")
    write(os.path.join(root, "proc/cmdline"), "BOOT_IMAGE=/boot/vmlinuz-6.6.47.1-1.azl3 root=PARTUUID=1b2e ro rd.auto=1 net.ifnames=0 lockdown=integrity\n")
    write(os.path.join(root, "proc/sys/kernel/random/boot_id"), "3b2b1d0c-0f5e-4f7e-9a57-0d1c3a8e0001\n")
    os.makedirs(os.path.join(nodes, name, "state", "active"))
    for unit in ("daos_server.service", "daos_agent.service"):
        open(os.path.join(nodes, name, "state", "active", unit), "w").close()
    with open(os.path.join(nodes, "hosts"), "a") as f:
        f.write(f"{addr} {name}\n")
    return root


def tree_of(root, skip_dirs=("proc",)):
    """path -> (bytes, mode) of every regular file below root."""
    out = {}
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        if rel.split(os.sep)[0] in skip_dirs:
            continue
        for f in files:
            p = os.path.join(d, f)
            st = os.lstat(p)
            out[os.path.normpath(os.path.join(rel, f))] = (open(p, "rb").read(), st.st_mode & 0o7777)
    return out


def overlay(tree, node):
    """The node's files as the playbook installs them (the Redfish files stay behind)."""
    return {p: v for p, v in tree_of(os.path.join(tree, "nodes", node)).items() if not p.startswith("redfish/")}


class Runner:
    def __init__(self, tmp):
        self.tmp = tmp
        self.nodes = os.path.join(tmp, "nodes")
        os.makedirs(self.nodes)
        self.env = dict(os.environ, ANSIBLE_PIPELINING="1", ANSIBLE_HOST_KEY_CHECKING="False",
                        ANSIBLE_LOCAL_TEMP=os.path.join(tmp, "atmp"), ANSIBLE_REMOTE_TEMP="/root/.ansible/tmp",
                        ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0", ANSIBLE_RETRY_FILES_ENABLED="0",
                        ANSIBLE_CALLBACK_RESULT_FORMAT="json", ANSIBLE_STDOUT_CALLBACK="default",
                        ANSIBLE_SSH_CONTROL_PATH_DIR=os.path.join(tmp, "cp"), DSLC_FAKE_NODES=self.nodes,
                        ANSIBLE_CONFIG=os.path.join(tmp, "ansible.cfg"),
                        # the nodes' connection as configuration, not -e: extra vars would reach the
                        # controller's own tasks (delegate_to: localhost) too
                        ANSIBLE_TRANSPORT="ssh", ANSIBLE_SSH_EXECUTABLE=os.path.join(FAKES, "ssh"),
                        ANSIBLE_SSH_TRANSFER_METHOD="piped", ANSIBLE_PYTHON_INTERPRETER="/usr/bin/python3")
        write(self.env["ANSIBLE_CONFIG"], "# empty: Ansible's defaults, not this machine's /etc/ansible/ansible.cfg\n")

    def play(self, tree, hosts, classes=None, extra=(), inventory=None):
        argv = ["ansible-playbook", "-i", inventory or os.path.join(tree, "cluster/ansible/inventory.yml"),
                os.path.join(tree, "cluster/ansible/apply.yml"), "--limit", ",".join(hosts), "-f", "2",
                "-e", json.dumps({"dslc_root": self.nodes + "/{{ inventory_hostname }}/root",
                                  "dslc_reboot_search_paths": [FAKES], "dslc_reboot_timeout": 60,
                                  "dslc_boot_time_command": "cat " + self.nodes + "/{{ inventory_hostname }}/root/proc/sys/kernel/random/boot_id"})]
        if classes is not None:
            argv += ["-e", "dslc_classes=" + classes]
        argv += list(extra)
        r = subprocess.run(argv, capture_output=True, text=True, env=self.env, timeout=300, stdin=subprocess.DEVNULL)
        return r.returncode, r.stdout + r.stderr

    def log(self, node):
        path = os.path.join(self.nodes, node + ".log")
        lines = open(path).read().splitlines() if os.path.exists(path) else []
        open(path, "w").close()
        return lines


def recap(out):
    """host -> {ok, changed, failed, ...} from PLAY RECAP."""
    r = {}
    for m in re.finditer(r"^(\S+)\s+: ((?:\w+=\d+\s*)+)$", out, re.M):
        r[m.group(1)] = {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m.group(2))}
    return r


def planned_params(tree, node):
    """The kernel parameters of the node's grub.d drop-in, as the build wrote them."""
    kernel = open(os.path.join(tree, "nodes", node, "etc/default/grub.d/60-dslc.cfg")).read()
    return re.search(r'GRUB_CMDLINE_LINUX="\$\{GRUB_CMDLINE_LINUX:-\} ([^"]*)"', kernel).group(1).split()


def lint_and_syntax(tree):
    play = os.path.join(tree, "cluster/ansible/apply.yml")
    inv = os.path.join(tree, "cluster/ansible/inventory.yml")
    r = subprocess.run(["ansible-playbook", "-i", inv, play, "--syntax-check"], capture_output=True, text=True)
    result(r.returncode == 0, "ansible-playbook --syntax-check: the built apply.yml with its inventory", r.stdout + r.stderr)
    if not shutil.which("ansible-lint"):
        skip("ansible-lint --profile production", "ansible-lint is not installed (Debian: ansible-lint)")
    else:
        r = subprocess.run(["ansible-lint", "--offline", "-p", "--nocolor", "--profile", "production", play],
                           capture_output=True, text=True, cwd=os.path.dirname(play))
        result(r.returncode == 0, "ansible-lint --offline --profile production: apply.yml clean", r.stdout + r.stderr)
    built = open(play, "rb").read()
    result(built == open(os.path.join(REPO, "targets/ansible_apply.yml"), "rb").read(),
           "the built apply.yml is targets/ansible_apply.yml, the file ansible-lint reads in place")


def inventory_reads_back(tree):
    inv = os.path.join(tree, "cluster/ansible/inventory.yml")
    r = subprocess.run(["ansible-inventory", "-i", inv, "--list"], capture_output=True, text=True)
    data = json.loads(r.stdout) if r.returncode == 0 else {}
    hv = data.get("_meta", {}).get("hostvars", {})

    def plain(v):
        return v.get("__ansible_unsafe") if isinstance(v, dict) and "__ansible_unsafe" in v else v
    g = {k: set(v.get("hosts", [])) for k, v in data.items() if isinstance(v, dict) and "hosts" in v}
    gpu = {f"gpu{i:03d}" for i in range(1, 15)}
    cn = {f"cn{i:02d}" for i in range(1, 5)}
    result(g.get("dslc_servers") == gpu and g.get("dslc_client_only") == cn
           and g.get("dslc_access_points") == {"gpu001", "gpu002", "gpu003"} and g.get("dslc_type_hgx_b200") == gpu | cn,
           "inventory groups: dslc_servers, dslc_client_only, dslc_access_points, dslc_type_hgx_b200 as the description has them",
           {k: sorted(v) for k, v in g.items()})
    g5 = {k: (plain(v) if not isinstance(v, list) else [plain(x) for x in v]) for k, v in hv.get("gpu005", {}).items()}
    planned = planned_params(tree, "gpu005")
    result(g5.get("ansible_host") == "10.10.0.14" and g5.get("dslc_kernel_params") == planned
           and g5.get("dslc_grub_update") == "grub2-mkconfig -o /boot/grub2/grub.cfg" and g5.get("dslc_cluster") == "tier0",
           "gpu005's variables: ansible_host from its mgmt address, the kernel file's parameters, Azure Linux's grub2-mkconfig", g5)
    cn4 = hv.get("cn04", {})
    result(plain(cn4.get("ansible_host")) == "10.10.0.103" and "dslc_kernel_params" not in cn4,
           "cn04 (no kernel file): ansible_host, no kernel parameters", cn4)
    unsafe = all(isinstance(v, dict) and "__ansible_unsafe" in v for h in hv.values() for k, v in h.items()
                 if not isinstance(v, list)) and all(isinstance(x, dict) for h in hv.values() for v in h.values()
                                                     if isinstance(v, list) for x in v)
    result(unsafe and len(hv) == 18, "every inventory value is !unsafe: Ansible never templates it", list(hv.get("cn04", {}).items()))


def hostile_value(tmp, tree):
    """!unsafe keeps a value holding Jinja text when a task uses it. No value of
    the description reaches the inventory with braces (host names, addresses,
    the cluster name and kernel words are refused with them), so the built
    inventory's dslc_cluster is swapped for one, tag kept; the same without the
    tag runs the lookup, which shows the check can fail."""
    inv = open(os.path.join(tree, "cluster/ansible/inventory.yml")).read()
    env = dict(os.environ, ANSIBLE_CONFIG=os.path.join(tmp, "empty.cfg"), ANSIBLE_NOCOLOR="1")
    write(env["ANSIBLE_CONFIG"], "\n")
    seen = {}
    for tag in ("!unsafe ", ""):
        mark = os.path.join(tmp, "pwned" + str(len(tag)))
        jinja = "{{ lookup('pipe', 'touch " + mark + "') }}"
        path = os.path.join(tmp, f"hostile{len(tag)}.yml")
        write(path, inv.replace("dslc_cluster: !unsafe tier0", f'dslc_cluster: {tag}"{jinja}"'))
        r = subprocess.run(["ansible", "cn04", "-i", path, "-c", "local", "-m", "ansible.builtin.debug", "-a", "var=dslc_cluster"],
                           capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
        seen[tag] = (os.path.exists(mark), r.stdout + r.stderr)
    result(not seen["!unsafe "][0] and "lookup('pipe'" in seen["!unsafe "][1] and seen[""][0],
           "a value holding {{ }} tagged !unsafe stays text in a task (untagged, Ansible runs it)", seen)


def runs(tmp):
    src = os.path.join(REPO, "examples", "hgx-b200", "cluster.dsl")
    tree = os.path.join(tmp, "out")
    build(src, tree)
    lint_and_syntax(tree)
    inventory_reads_back(tree)
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind /etc /etc && mount -o remount,bind,ro /etc"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        skip("real runs over the fake ssh", f"this machine cannot make /etc read only in a mount namespace: {probe.stderr.strip()}")
        return
    run = Runner(tmp)
    roots = {n: make_node(run.nodes, n, a) for n, a in (("gpu005", "10.10.0.14"), ("cn04", "10.10.0.103"))}
    before = {n: tree_of(r) for n, r in roots.items()}

    # 1. install with the classes every node of the example has
    rc, out = run.play(tree, NODES, "network-reload,remount,agent-refresh")
    rec = recap(out)
    result(rc == 0 and all(rec.get(n, {}).get("failed") == 0 for n in NODES), "first run: network-reload,remount,agent-refresh on gpu005 and cn04", out)
    for n in NODES:
        now = tree_of(roots[n])
        want = overlay(tree, n)
        got = {p: now.get(p) for p in want}
        result(got == want, f"{n}: every file of nodes/{n}/ installed, byte for byte and mode for mode",
               sorted(p for p in want if got[p] != want[p]))
        others = {p: v for p, v in now.items() if p not in want and p != "var/lib/dslc/installed"}
        result(others == before[n], f"{n}: nothing outside the manifest touched (the site's own files, DAOS's units)",
               sorted(set(others) ^ set(before[n])))
        rp = os.path.join(roots[n], "var/lib/dslc/installed")
        record = open(rp).read().split() if os.path.exists(rp) else []
        result(sorted(record) == sorted(want), f"{n}: var/lib/dslc/installed lists what was installed", record[:5])
    logs = {n: run.log(n) for n in NODES}
    for n in NODES:
        # the systemd module starts a unit that is not running ("restarted" on an
        # inactive unit: ansible/modules/systemd.py), as dslc's new units are here
        units = sorted(p.rsplit("/", 1)[1] for p in overlay(tree, n) if re.match(r"etc/systemd/system/[^/]+\.service$", p))
        want = ["systemctl daemon-reload", "networkctl reload"]
        want += [f"systemctl start {u}" for u in units if u.startswith("dslc-lossless-roce-")]
        want += ["systemctl kill -s USR2 daos_agent"]
        want += ["systemd-tmpfiles --create"] + [f"systemctl start {u}" for u in units if u.startswith("dfuse-")]
        got = [l for l in logs[n] if not l.startswith("systemctl show")]
        result(got == want, f"{n}: the classes' commands, in order, each once", (got, want))

    # 2. the same run again: nothing changes
    rc, out = run.play(tree, NODES)
    rec = recap(out)
    result(rc == 0 and all(rec.get(n, {}).get("changed") == 0 for n in NODES), "second run: changed=0 on both nodes", rec)
    result(all(run.log(n) == [] for n in NODES), "second run without classes: no command on a node")

    # 3. reboot and engine-restart on the server
    rc, out = run.play(tree, ["gpu005"], "reboot,engine-restart")
    log = [l for l in run.log("gpu005") if not l.startswith("systemctl show")]
    cmdline = open(os.path.join(roots["gpu005"], "proc/cmdline")).read().split()
    planned = planned_params(tree, "gpu005")
    result(rc == 0 and log[:2] == ["grub2-mkconfig -o /boot/grub2/grub.cfg", "shutdown -r 0 dslc rollout reboot"]
           and log[2:] == ["systemctl start daos_server"],
           "reboot,engine-restart: grub2-mkconfig, shutdown -r, then daos_server started (the reboot stopped it)", (log, out[-1500:]))
    result(all(p in cmdline for p in planned) and "lockdown=integrity" in cmdline,
           "after the reboot /proc/cmdline holds the planned parameters and keeps the distribution's", cmdline)

    # 4. a reboot whose boot configuration leaves out a parameter: refused on that host
    with open(os.path.join(roots["gpu005"], "etc/default/grub"), "a") as f:
        f.write('GRUB_CMDLINE_LINUX="rd.auto=1"\n')  # a site edit after the grub.d loop: dslc's parameters lost
    rc, out = run.play(tree, ["gpu005"], "reboot")
    run.log("gpu005")
    result(rc != 0 and "gpu005 booted without iommu=pt" in out, "a reboot that loses a planned parameter fails the host and names it",
           out[-1500:])
    shutil.copy(os.path.join(REPO, "tests/os/grub-defaults/azurelinux3"), os.path.join(roots["gpu005"], "etc/default/grub"))

    # 5. refusals before anything is written
    rc, out = run.play(tree, ["cn04"], "network-reload,reformat")
    result(rc != 0 and "dslc_classes names reformat" in out and run.log("cn04") == [],
           "a class the playbook does not apply (reformat): refused, no command run", out[-800:])
    env_fail = dict(run.env, DSLC_FAKE_FAIL="systemctl restart daos_agent")
    run.env, saved = env_fail, run.env
    rc, out = run.play(tree, ["cn04"], "agent-restart")
    run.env = saved
    result(rc != 0 and "Unable to restart service daos_agent" in out, "a failed daos_agent restart fails the host with systemctl's message",
           out[-800:])
    run.log("cn04")

    # 6. a second build: check mode shows the changes, the run makes them, a dropped file goes
    src2 = os.path.join(tmp, "v2", "cluster.dsl")
    shutil.copytree(os.path.join(REPO, "examples", "hgx-b200"), os.path.dirname(src2))
    text = open(src2).read()
    text2 = text.replace("  nccl on                                 # NCCL_IB_HCA", "  nccl off                                # NCCL_IB_HCA")
    text2 = text2.replace("crt_timeout          600s", "crt_timeout          300s")
    # the storage NICs' MTU (cn04's units too) and a fifth client (the inventory)
    text2 = text2.replace("    storage mtu 9000 ", "    storage mtu 4200 ")  # every node's: one MTU per fabric
    text2 = text2.replace("nodes cn[01-04] : client", "nodes cn[01-05] : client")
    assert text2 != text
    open(src2, "w").write(text2)
    tree2 = os.path.join(tmp, "out2")
    build(src2, tree2)
    old, new = overlay(tree, "gpu005"), overlay(tree2, "gpu005")
    changed = sorted(p for p in new if old.get(p) != new[p])
    removed = sorted(p for p in old if p not in new)
    snap = tree_of(roots["gpu005"])
    rc, out = run.play(tree2, ["gpu005"], None, ["--check", "--diff"])
    named = sorted(set(re.findall(r"(?:--- before|\+\+\+ after): " + re.escape(roots["gpu005"]) + r"/(\S+)", out))
                   | set(re.findall(r'"path": "' + re.escape(roots["gpu005"]) + r'/([^"]+)"', out)))
    named = [p for p in named if p != "var/lib/dslc/installed"]
    result(rc == 0 and named == sorted(changed + removed) and tree_of(roots["gpu005"]) == snap and changed and removed,
           f"--check --diff on a new build names exactly {len(changed)} changed and {len(removed)} removed files, writes nothing",
           (named, changed, removed, out[-1500:]))
    rc, out = run.play(tree, ["gpu005"], None, inventory=os.path.join(tree2, "cluster/ansible/inventory.yml"))
    result(rc != 0 and "was not built with" in out and tree_of(roots["gpu005"]) == snap,
           "the inventory of another build: refused, nothing written", out[-800:])
    rc, out = run.play(tree2, ["gpu005"])
    now = tree_of(roots["gpu005"])
    result(rc == 0 and all(now.get(p) == new[p] for p in new) and not any(p in now for p in removed)
           and {p: v for p, v in now.items() if p not in new and p != "var/lib/dslc/installed"} == before["gpu005"]
           | {"boot/grub2/grub.cfg": now.get("boot/grub2/grub.cfg")},
           f"the new build installed: {', '.join(changed)} changed, {', '.join(removed)} removed, nothing else touched",
           sorted(set(now) ^ set(new)))

    # a site's own inventory: no inventory check, and a reboot without dslc's kernel parameters refused
    site = os.path.join(tmp, "site.yml")
    write(site, "all:\n  hosts:\n    gpu005:\n      ansible_host: 10.10.0.14\n")
    rc, out = run.play(tree2, ["gpu005"], "reboot", inventory=site)
    log = run.log("gpu005")
    result(rc != 0 and "gpu005 has a kernel file but its inventory gives no dslc_grub_update" in out
           and not any(l.startswith(("grub", "shutdown")) for l in log),
           "a site's inventory without dslc's variables: reboot refused before grub or shutdown runs", (log, out[-800:]))

    # 7. verify
    rc, out = run.play(tree2, NODES, None, ["--tags", "verify"])
    result(rc != 0 and recap(out).get("gpu005", {}).get("failed") == 0 and recap(out).get("cn04", {}).get("failed") == 1,
           "verify: gpu005 (installed from this build) passes, cn04 (the first build's MTU) fails", recap(out))
    with open(os.path.join(roots["gpu005"], "etc/daos/daos_server.yml"), "a") as f:
        f.write("# edited by hand\n")
    rc, out = run.play(tree2, ["gpu005"], None, ["--tags", "verify"])
    result(rc != 0 and re.search(r"etc/daos/daos_server\.yml: sha256 [0-9a-f]{64}, mode 0644; the manifest has", out) is not None
           and "Install the node" not in out, "verify: a file changed by hand is named with its sha256; nothing installed", out[-1200:])


if not shutil.which("ansible-playbook"):
    skip("apply.yml", "ansible-playbook is not installed (Debian: ansible-core)")
else:
    with tempfile.TemporaryDirectory() as tmp:
        runs(tmp)
        hostile_value(tmp, os.path.join(tmp, "out"))
print(f"ansible: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
