#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""A device named where dslc reads a file (issue 54 item 4): lint, build,
import, fmt and the language server refuse it at its line and never open it.
Opening some devices acts (/dev/watchdog arms on open); the device here is a
copy of /dev/null's node (char 1:3), watched with inotify for IN_OPEN, which
the kernel reports for every open(2) of the inode and not for O_PATH (the
test checks both of those facts first, on this kernel). A description in a
pull request names it as `topology`, `include`, a file on the command line
or a document's include in an editor.

usage: tests/device_reads.py DSLC   (DSLC may be "valgrind ... build/dslc")
"""
import ctypes
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DSLC = shlex.split(sys.argv[1])
DSLC[-1] = os.path.abspath(DSLC[-1])
passed = failed = 0
IN_OPEN = 0x20


def result(ok, name, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   device {name}")
    else:
        failed += 1
        print(f"FAIL device {name}{': ' + str(detail)[:800] if detail else ''}")


class Watch:
    """IN_OPEN events of one inode."""

    def __init__(self, path):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0 or self.libc.inotify_add_watch(self.fd, path.encode(), IN_OPEN) < 0:
            raise OSError(ctypes.get_errno(), "inotify")

    def opens(self):
        n = 0
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return n
            n += len(data) // 16  # struct inotify_event, no name for a watched file


def run(args, cwd, stdin=None):
    p = subprocess.run(DSLC + args, cwd=cwd, capture_output=True, text=True, timeout=300, input=stdin)
    return p.returncode, p.stdout + p.stderr


def main():
    if os.geteuid() != 0:
        print("skip device: mknod needs root (CI runs as root)")
        return 0
    tmp = tempfile.mkdtemp(prefix="dslc-device-")
    try:
        ex = os.path.join(tmp, "ex")
        shutil.copytree(os.path.join(REPO, "examples/hgx-b200"), ex)
        dev = os.path.join(ex, "node.xml")
        os.mknod(dev, 0o666 | 0o020000, os.makedev(1, 3))
        w = Watch(dev)
        # the kernel's part, checked here: O_PATH is no open, O_RDONLY is one
        os.close(os.open(dev, os.O_PATH))
        none = w.opens()
        os.close(os.open(dev, os.O_RDONLY | os.O_NONBLOCK))
        one = w.opens()
        if (none, one) != (0, 1):
            print(f"skip device: inotify on this kernel reports {none} opens for O_PATH, {one} for O_RDONLY")
            return 0
        cl = os.path.join(ex, "cluster.dsl")
        hw = os.path.join(ex, "hardware.dsl")
        text = open(hw).read()
        assert '"hgx-b200.xml"' in text
        open(hw, "w").write(text.replace('"hgx-b200.xml"', '"node.xml"'))
        line = next(i for i, l in enumerate(open(hw), 1) if '"node.xml"' in l)
        for cmd in (["lint", "cluster.dsl"], ["build", "cluster.dsl", "-o", "out"], ["lint", "--format", "json", "cluster.dsl"]):
            rc, out = run(cmd, ex)
            at = f'"line": {line},' if "json" in cmd else f"hardware.dsl:{line}:"
            result(rc == 1 and at in out and "hardware.dsl" in out and "not a regular file" in out and w.opens() == 0,
                   f"dslc {' '.join(cmd)}: a topology naming a device: refused at hardware.dsl:{line}, never opened (exit {rc})",
                   out[-400:])
        open(hw, "w").write(text)
        # include "node.dsl", a device
        os.mknod(os.path.join(ex, "node.dsl"), 0o666 | 0o020000, os.makedev(1, 3))
        w2 = Watch(os.path.join(ex, "node.dsl"))
        cl_text = open(cl).read()
        open(cl, "a").write('include "node.dsl"\n')
        rc, out = run(["lint", "cluster.dsl"], ex)
        result(rc == 1 and "node.dsl" in out and "not a regular file" in out and w2.opens() == 0,
               f"include of a device: refused at its line, never opened (exit {rc})", out[-400:])
        rc, out = run(["lint", "node.dsl"], ex)
        result(rc == 2 and "not a regular file" in out and w2.opens() == 0,
               f"dslc lint DEVICE: refused, never opened (exit {rc})", out[-300:])
        rc, out = run(["fmt", "--check", "node.dsl"], ex)
        result(rc == 2 and "not a regular file" in out and w2.opens() == 0, f"dslc fmt --check DEVICE (exit {rc})", out[-300:])
        open(cl, "w").write(cl_text)
        # the command line's --topology, for a daos_server.yml and for import
        yml = os.path.join(REPO, "tests/golden/import/first.yml")
        rc, out = run(["lint", yml, "--topology", dev], ex)
        result(rc == 1 and "not a regular file" in out and w.opens() == 0,
               f"lint daos_server.yml --topology DEVICE: a finding, never opened (exit {rc})", out[-300:])
        rc, out = run(["import", yml, "--host", "s1", "--topology", dev], ex)
        result(rc not in (0, 124) and "not a regular file" in out and w.opens() == 0,
               f"import --topology DEVICE: refused, never opened (exit {rc})", out[-300:])
        # a settings file and a built tree's manifest that are devices
        rep = os.path.join(tmp, "repo")
        os.makedirs(rep)
        os.mknod(os.path.join(rep, ".dslc-lint"), 0o666 | 0o020000, os.makedev(1, 3))
        w3 = Watch(os.path.join(rep, ".dslc-lint"))
        shutil.copy(os.path.join(REPO, "tests/golden/diag/bmc-missing.dsl"), os.path.join(rep, "x.dsl"))
        rc, out = run(["lint", "x.dsl"], rep)
        result(rc == 2 and "not a regular file" in out and w3.opens() == 0,
               f"a .dslc-lint that is a device: refused, never opened (exit {rc})", out[-300:])
        # the language server: a document whose hardware names the device
        open(hw, "w").write(text.replace('"hgx-b200.xml"', '"node.xml"'))
        body = lambda m: (lambda b: b"Content-Length: %d\r\n\r\n" % len(b) + b)(json.dumps(m).encode())
        msgs = [body({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
                body({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                    "uri": "file://" + hw, "languageId": "dslc", "version": 1, "text": open(hw).read()}}}),
                body({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}), body({"jsonrpc": "2.0", "method": "exit"})]
        p = subprocess.run(DSLC + ["lsp"], cwd=ex, input=b"".join(msgs), capture_output=True, timeout=300)
        out = p.stdout.decode(errors="replace")
        result(p.returncode == 0 and "not a regular file" in out and w.opens() == 0,
               "dslc lsp: a document whose topology is a device: the finding published, never opened", out[-300:])
        open(hw, "w").write(text)
        # dslc doctor (issue 53 item 14): a root whose files are devices where
        # doctor reads (an image or chroot checked before it boots), and
        # --topology naming one; doctor reports each, never opens it
        sys.path.insert(0, os.path.join(REPO, "tests"))
        from doctor_roots import make_root
        subprocess.run(DSLC + ["build", "cluster.dsl", "-o", "out-doctor"], cwd=ex, capture_output=True, check=True)
        root = make_root(os.path.join(ex, "out-doctor/nodes/gpu005"), os.path.join(ex, "hgx-b200.xml"),
                         os.path.join(tmp, "root"))
        watches = []
        for rel in ("proc/cmdline", "etc/daos/daos_server.yml", "sys/kernel/mm/transparent_hugepage/enabled",
                    "sys/class/net/ens1f0np0/mtu"):
            os.unlink(os.path.join(root, rel))
            os.mknod(os.path.join(root, rel), 0o666 | 0o020000, os.makedev(1, 3))
            watches.append((rel, Watch(os.path.join(root, rel))))
        rc, out = run(["doctor", "cluster.dsl", "--node", "gpu005", "--root", root, "--topology", "hgx-b200.xml",
                       "--format", "json"], ex)
        opened = [rel for rel, wt in watches if wt.opens()]
        said = all(rel.replace("devices/virtual", "class") in out for rel, _ in watches)
        result(rc == 1 and not opened and said and "not a regular file" in out,
               f"doctor --root: four files that are devices, each reported, none opened (exit {rc}, opened {opened})",
               out[-600:])
        rc, out = run(["doctor", "cluster.dsl", "--node", "gpu005", "--root", root, "--topology", dev], ex)
        result(rc == 2 and "not a regular file" in out and w.opens() == 0,
               f"doctor --topology DEVICE: refused, never opened (exit {rc})", out[-300:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"device: {passed} passed, {failed} failed")
    return 1 if failed else 0


sys.exit(main())
