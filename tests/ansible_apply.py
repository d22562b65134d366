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

Then the rollout script's default apply (issue 72 item 2): the plan's script with
DSLC_APPLY unset runs the new tree's apply.yml per wave and its verify tag against
the fake dmg and these nodes; a tree that is not the planned one, a class the
playbook does not apply and a missing DSLC_TREE are refused before any dmg call;
a failed wave stops there and a second run resumes. bios-apply+reboot runs the
node's Redfish apply.sh on the controller against a loopback BMC.

usage: tests/ansible_apply.py DSLC [PART,...]   (parts: runs hostile bios planned rollout)
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


def host_ranges(tmp):
    """The groups list their hosts as Ansible host ranges ("gpu[001:006]"):
    ansible-inventory, the consumer, expands each group of builds whose host
    names take every shape a range can get wrong (one and two digits in one
    list, zero padding, a gap, a width change, a name with no number) back
    to exactly the nodes the tree has (nodes/), the servers to the nodes with
    a daos_server.yml. gpu7 alone in its width is a name, not a range."""
    src = open(os.path.join(REPO, "examples", "hgx-b200", "cluster.dsl")).read()
    shapes = {"widths": "gpu[7,10-14]", "zeros": "gpu[0098-0102,0104,0007,0001-0003]", "gap": "gpu[001-003,005,007,010-012]",
              "zero-start": "gpu[00-03,07]"}
    env = dict(os.environ, ANSIBLE_CONFIG=os.path.join(tmp, "ranges.cfg"), ANSIBLE_NOCOLOR="1")
    write(env["ANSIBLE_CONFIG"], "\n")
    for name, hosts in shapes.items():
        d = os.path.join(tmp, "ranges", name)
        shutil.copytree(os.path.join(REPO, "examples", "hgx-b200"), d)
        first = "gpu0001" if "0001" in hosts else "gpu00" if "00-" in hosts else "gpu007" if "007" in hosts else "gpu7"
        aps = {"widths": "gpu[10-12]", "zeros": "gpu[0001-0003]", "gap": "gpu[001-003]", "zero-start": "gpu[00-02]"}[name]
        text = src.replace("nodes gpu[001-014] : converged", f"nodes {hosts} : converged").replace("on gpu[001-014]", f"on {hosts}")
        text = text.replace("access_points        gpu[001-003]", f"access_points        {aps}")
        text = text.replace("node gpu007 { exclude", f"node {first} {{ exclude")
        open(os.path.join(d, "cluster.dsl"), "w").write(text)
        out = os.path.join(d, "out")
        r = subprocess.run([DSLC, "build", os.path.join(d, "cluster.dsl"), "-o", out], capture_output=True, text=True)
        if r.returncode != 0:
            result(False, f"host ranges ({name}): the variant builds", r.stderr[-600:])
            continue
        nodes = set(os.listdir(os.path.join(out, "nodes")))
        servers = {n for n in nodes if os.path.exists(os.path.join(out, "nodes", n, "etc/daos/daos_server.yml"))}
        r = subprocess.run(["ansible-inventory", "-i", os.path.join(out, "cluster/ansible/inventory.yml"), "--list"],
                           capture_output=True, text=True, env=env)
        data = json.loads(r.stdout) if r.returncode == 0 else {}
        g = {k: set(v.get("hosts", [])) for k, v in data.items() if isinstance(v, dict) and "hosts" in v}
        kernel = set().union(*[v for k, v in g.items() if k.startswith("dslc_kernel_")] or [set()])
        inv = open(os.path.join(out, "cluster/ansible/inventory.yml")).read()
        result(g.get("dslc_type_hgx_b200") == nodes and g.get("dslc_servers") == servers and kernel <= nodes and len(servers) > 3
               and re.search(r"^        gpu\d*\[\d+:\d+\]: \{\}$", inv, re.M) is not None,
               f"host ranges ({name}: {hosts}): ansible-inventory expands the groups to the tree's {len(nodes)} nodes and {len(servers)} servers",
               (sorted(g.get("dslc_type_hgx_b200", set()) ^ nodes), sorted(g.get("dslc_servers", set()) ^ servers), r.stderr[-400:]))


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

    # 4. a reboot whose boot configuration leaves out a parameter: the rollout's second wave (rollout())

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


def bios_apply(tmp, tree):
    """bios-apply+reboot with system-restart: apply.sh on the controller against a BMC on
    loopback (tests/validate/redfish_check.py, written from DSP0266), the credentials from
    the controller's environment only, then the reboot (no grub) and daos_server."""
    run = Runner(os.path.join(tmp, "bios"))
    install_overlay(make_node(run.nodes, "gpu005", "10.10.0.14"), tree, "gpu005")
    try:
        sys.path.insert(0, os.path.join(REPO, "tests", "validate"))
        import redfish_check  # noqa: E402  (needs python3-jsonschema)
    except ImportError as e:
        skip("bios-apply+reboot against a BMC", f"tests/validate/redfish_check.py cannot load: {e} (Debian: python3-jsonschema)")
        return
    from http.server import ThreadingHTTPServer
    import threading
    redfish_check.reset("parent", nested_only=True)  # the example's BMC (vendor ami, nested)
    server = ThreadingHTTPServer(("127.0.0.1", 0), redfish_check.Service)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    secret = "s3cret pass"
    saved = run.env
    run.env = dict(saved, REDFISH_BASE=f"http://127.0.0.1:{server.server_port}", REDFISH_USER="admin", REDFISH_PASSWORD=secret)
    try:
        rc, out = run.play(tree, ["gpu005"], "bios-apply+reboot,system-restart", ["-v"])
    finally:
        run.env = saved
        server.shutdown()
    log = [l for l in run.log("gpu005") if not l.startswith("systemctl show")]
    want = json.load(open(os.path.join(tree, "nodes/gpu005/redfish/bios-settings.json")))
    patches = redfish_check.Service.patches
    import base64
    auth = "Basic " + base64.b64encode(b"admin:" + secret.encode()).decode()
    result(rc == 0 and len(patches) == 1 and patches[0]["body"] == want and patches[0]["auth"] == auth and log == ["shutdown -r 0 dslc rollout reboot", "systemctl start daos_server"],
           "bios-apply+reboot,system-restart: the node's bios-settings.json PATCHed from the controller with the operator's credentials, then the reboot (no grub) and daos_server",
           (rc, log, patches, out[-1500:]))
    result(secret not in out and "REDFISH_PASSWORD" not in out, "the BMC password appears nowhere in the run's output (-v)", out[-600:])


def install_overlay(root, tree, node):
    """A node the playbook installed from tree before: its files and dslc's record of them."""
    files = overlay(tree, node)
    for rel, (data, mode) in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        os.chmod(path, mode)
    write(os.path.join(root, "var/lib/dslc/installed"), "".join(p + "\n" for p in sorted(files)))


def rollout(tmp, tree):
    """Issue 72 item 2: the rollout script with DSLC_APPLY unset runs the new
    tree's apply.yml on each wave (--limit from a file, the wave's classes, the
    plan's node digests), then its verify tag, against the fake dmg and these
    nodes. Refused before anything: a tree that is not the planned one, no
    DSLC_TREE. A wave whose playbook fails stops the rollout there; a second
    run resumes with it."""
    run = Runner(os.path.join(tmp, "roll"))
    roots = {n: make_node(run.nodes, n, a) for n, a in (("gpu005", "10.10.0.14"), ("cn04", "10.10.0.103"))}
    for n, r in roots.items():
        install_overlay(r, tree, n)
    src = os.path.join(tmp, "roll", "ex", "cluster.dsl")
    shutil.copytree(os.path.join(REPO, "examples", "hgx-b200"), os.path.dirname(src))
    text = open(src).read()
    per_node = "".join(f"node {n} {{ kernel {{ iommu pt  irqaffinity os  param nmi_watchdog=0 }} }}\n" for n in NODES)
    assert "\nnodes cn[01-04] : client" in text
    open(src, "w").write(text.replace("\nnodes cn[01-04] : client", "\n" + per_node + "nodes cn[01-04] : client"))
    new = os.path.join(tmp, "roll", "new")
    build(src, new)
    script = os.path.join(tmp, "roll", "roll.sh")
    with open(script, "w") as f:
        r = subprocess.run([DSLC, "plan", src, "--against", tree, "--format", "script"], stdout=f, stderr=subprocess.PIPE, text=True)
    bin_dir = os.path.join(tmp, "roll", "bin")
    os.makedirs(bin_dir)
    for fake in ("dmg", "date", "sleep"):
        shutil.copy(os.path.join(REPO, "tests", "fakes", fake), bin_dir)
    test_vars = os.path.join(tmp, "roll", "vars.json")
    write(test_vars, json.dumps({"dslc_root": run.nodes + "/{{ inventory_hostname }}/root",
                                 "dslc_reboot_search_paths": [FAKES], "dslc_reboot_timeout": 60,
                                 "dslc_boot_time_command": "cat " + run.nodes + "/{{ inventory_hostname }}/root/proc/sys/kernel/random/boot_id"}))
    log = os.path.join(tmp, "roll", "dmg.log")
    servers = " ".join(f"gpu{i:03d}" for i in range(1, 15))
    env = dict(run.env, PATH=bin_dir + ":" + os.environ["PATH"], FAKE_LOG=log, FAKE_DMG_STATE=os.path.join(tmp, "roll", "dmg.state"),
               FAKE_DMG_HOSTS=servers, FAKE_DMG_RELEASE="2.6", FAKE_DMG_POOLS="tier0", FAKE_CLOCK=os.path.join(tmp, "roll", "clock"),
               DSLC_ANSIBLE=f"ansible-playbook -f 2 -e @{test_vars}", DSLC_TREE=new)
    env.pop("DSLC_APPLY", None)
    env.pop("DSLC_VERIFY", None)
    write(env["FAKE_CLOCK"], "1000\n")

    def roll(**over):
        open(log, "w").close()
        e = dict(env, **over)
        p = subprocess.run(["sh", script], capture_output=True, text=True, env={k: v for k, v in e.items() if v is not None},
                           timeout=900, stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout + p.stderr, open(log).read().splitlines()

    waves = re.findall(r"^dslc_wave_nodes='([^']*)'$", open(script).read(), re.M)
    result(r.returncode == 3 and waves == ["cn04", "gpu005"], "the plan: cn04's wave (client-only, first), then gpu005's, each reboot", (waves, r.stderr[-500:]))
    snap = {n: tree_of(r) for n, r in roots.items()}

    # refused before anything: the old tree as DSLC_TREE, and no DSLC_TREE
    rc, out, dmg = roll(DSLC_TREE=tree)
    result(rc == 2 and "is not the tree this rollout was planned from: the files of cn04, gpu005 differ from the plan's" in out
           and dmg == [] and {n: tree_of(r) for n, r in roots.items()} == snap and all(run.log(n) == [] for n in NODES),
           "DSLC_TREE is not the planned tree: refused (exit 2) before any dmg call or playbook run, naming the nodes", out[-800:])
    rc, out, dmg = roll(DSLC_TREE=None)
    result(rc == 2 and "set DSLC_TREE to the folder `dslc build` wrote" in out and dmg == [],
           "DSLC_APPLY and DSLC_TREE unset: refused (exit 2) before any dmg call, saying what to set", out[-500:])

    # a wave class the tree's playbook does not apply (reformat: gpu005 loses a drive): refused before anything
    src_r = os.path.join(tmp, "roll", "ex", "reformat.dsl")
    write(src_r, text.replace("\nnodes cn[01-04] : client", "\nnode gpu005 { exclude nvme 0000:a4:00.0 }\nnodes cn[01-04] : client"))
    new_r = os.path.join(tmp, "roll", "new-reformat")
    build(src_r, new_r)
    script_r = os.path.join(tmp, "roll", "reformat.sh")
    with open(script_r, "w") as f:
        subprocess.run([DSLC, "plan", src_r, "--against", tree, "--format", "script"], stdout=f, stderr=subprocess.DEVNULL)
    open(log, "w").close()
    p = subprocess.run(["sh", script_r], capture_output=True, text=True, env=dict(env, DSLC_TREE=new_r), timeout=300, stdin=subprocess.DEVNULL)
    result(p.returncode == 2 and "this rollout's waves need reformat, which " + new_r + "/cluster/ansible/apply.yml does not apply" in p.stderr
           and open(log).read() == "" and all(run.log(n) == [] for n in NODES),
           "a wave class apply.yml does not apply (reformat): refused (exit 2) before any dmg call, pointing at DSLC_APPLY", p.stderr[-600:])

    # gpu005's reboot loses the new parameter (a site's edit after grub.d): its wave stops
    grub = os.path.join(roots["gpu005"], "etc/default/grub")
    good = open(grub).read()
    write(grub, good + 'GRUB_CMDLINE_LINUX="rd.auto=1"\n')
    rc, out, dmg = roll()
    logs = {n: run.log(n) for n in NODES}
    stop5 = "dmg system stop --rank-hosts=gpu005"
    result(rc == 1 and "STOPPED in wave 2 of 2 (gpu005: reboot): apply.yml gpu005 reboot failed (exit 2)" in out
           and re.search(r"gpu005 booted without [^:]*nmi_watchdog=0", out) and "apply.yml --tags verify cn04 reboot: the nodes run the planned files" in out
           and any(l.startswith(stop5) for l in dmg) and not any(l.startswith("dmg system start --rank-hosts=gpu005") for l in dmg),
           "a wave whose playbook fails (gpu005 booted without the planned parameter): stopped there, its ranks left stopped; cn04's wave done and verified",
           (out[-2000:], dmg[-6:]))
    result("nmi_watchdog=0" in open(os.path.join(roots["cn04"], "proc/cmdline")).read().split()
           and overlay(new, "cn04") == {p: v for p, v in tree_of(roots["cn04"]).items() if p in overlay(new, "cn04")}
           and [l for l in logs["cn04"] if not l.startswith("systemctl show")][:2] == ["grub2-mkconfig -o /boot/grub2/grub.cfg", "shutdown -r 0 dslc rollout reboot"],
           "cn04 (wave 1): the new tree's files installed, grub2-mkconfig and the reboot run, nmi_watchdog=0 on /proc/cmdline", logs["cn04"])

    # the site's edit undone: the same script resumes with wave 2 and finishes
    write(grub, good)
    rc, out, dmg = roll()
    logs = {n: run.log(n) for n in NODES}
    order = [l.split(" ", 1)[1] if l.startswith("dmg ") else l for l in dmg]
    start5 = [i for i, l in enumerate(dmg) if l.startswith("dmg system start --rank-hosts=gpu005")]
    result(rc == 0 and "wave 1 (cn04) was done by an earlier run" in out and "rollout done" in out and start5
           and "apply.yml --tags verify gpu005 reboot: the nodes run the planned files" in out and logs["cn04"] == []
           and "nmi_watchdog=0" in open(os.path.join(roots["gpu005"], "proc/cmdline")).read().split(),
           "the run again: wave 1 skipped, gpu005 rebooted with nmi_watchdog=0, verified, its ranks started; rollout done",
           (out[-2000:], order[-8:]))
    result(overlay(new, "gpu005") == {p: v for p, v in tree_of(roots["gpu005"]).items() if p in overlay(new, "gpu005")},
           "gpu005: the new tree's files installed, byte for byte and mode for mode")


def planned_refusals(tmp, tree):
    """apply.yml's own check of the rollout's dslc_planned, from the manifest it
    installs from: a node whose digest differs, a wave host --limit lost."""
    run = Runner(os.path.join(tmp, "planned"))
    root = make_node(run.nodes, "cn04", "10.10.0.103")
    snap = tree_of(root)
    rc, out = run.play(tree, ["cn04"], "none", ["-e", json.dumps({"dslc_planned": {"cn04": "0" * 64}})])
    result(rc != 0 and "cn04: " in out and "the rollout was planned with " + "0" * 64 in out and tree_of(root) == snap,
           "dslc_planned gives cn04 another node digest than the tree's manifest: refused, nothing written", out[-800:])
    digests = json.load(open(os.path.join(tree, "manifest.json")))["node_digests"]
    rc, out = run.play(tree, ["cn04"], "none", ["-e", json.dumps({"dslc_planned": {"cn04": digests["cn04"], "gpu006": digests["gpu006"]}})])
    result(rc != 0 and "the wave's gpu006 matched no host" in out and tree_of(root) == snap,
           "a wave host --limit did not select: refused, nothing written", out[-800:])


# PART,... (or DSLC_TEST_PARTS) runs those parts only: the queue runs
# runs,hostile and bios,planned,rollout as two jobs side by side, and a
# mutation of one class or of the rollout's apply (tests/mutate.sh) needs
# not the 10 runs of "runs"; the parts not run are said
PARTS = ("runs", "hostile", "bios", "planned", "rollout")
only = [p for p in (sys.argv[2] if len(sys.argv) > 2 else os.environ.get("DSLC_TEST_PARTS", ",".join(PARTS))).split(",") if p]
if set(only) - set(PARTS):
    raise SystemExit(f"DSLC_TEST_PARTS: {','.join(sorted(set(only) - set(PARTS)))} is not one of {','.join(PARTS)}")
if set(only) != set(PARTS):
    print(f"ansible: DSLC_TEST_PARTS: only {','.join(only)}; not run: {','.join(p for p in PARTS if p not in only)}")
if not shutil.which("ansible-playbook"):
    skip("apply.yml", "ansible-playbook is not installed (Debian: ansible-core)")
else:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        if "runs" in only:
            runs(tmp)
        else:
            build(os.path.join(REPO, "examples", "hgx-b200", "cluster.dsl"), out)
        if "hostile" in only:
            hostile_value(tmp, out)
            host_ranges(tmp)
        real = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind /etc /etc && mount -o remount,bind,ro /etc"],
                              capture_output=True, text=True).returncode == 0
        if not real:
            skip("the rollout's default apply", "this machine cannot make /etc read only in a mount namespace")
        if real and "bios" in only:
            bios_apply(tmp, out)
        if real and "planned" in only:
            planned_refusals(tmp, out)
        if real and "rollout" in only:
            rollout(tmp, out)
print(f"ansible: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
