#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Runs the Python fakes (dmg, kubectl, daos) in a server of warm workers, for the tests
that call them hundreds of times a run (rollout_gates, rollout_k8s).

On this kind of machine a process costs about 4 ms and a Python interpreter
with json about 40 ms before a fake's first line: a 14-wave rollout makes
175 dmg calls, and the rollout suites spent most of their time starting
interpreters. Here the interpreter and the fakes' modules load once, in
WORKERS warm processes; a call runs the fake's unchanged code as __main__ of
a fresh module, with the calling process's own environment, working
directory and arguments, so every call still starts from nothing but the
files the fakes keep (their state, FAKE_LOG, FAKE_CLOCK), exactly as a
separate process would. Up to WORKERS calls run side by side, as separate
processes do.

The fakes are reached through a small bash client written in place of each
fake (`serve.py start DIR PARENT_PID FAKE...`): it connects over loopback
TCP (bash's /dev/tcp, no other tool), sends its pid, working directory and
arguments, and prints what the fake wrote, stdout first, then stderr, and
exits with its status. The worker reads the client's environment from
/proc/PID/environ, the one the fake would have had as a process. The fakes
read no stdin (a worker's stdin is /dev/null). A fake that hangs (dmg's
hang=) sleeps in its worker: timeout(1) kills the client, and the worker
ends with it, as the fake's process would. The server ends within a second
of PARENT_PID (the test) ending.
"""
import io
import os
import signal
import socket
import sys
import time
import traceback

# the modules the fakes import, loaded once in the server
for _module in ("json", "re", "uuid", "zlib"):
    __import__(_module)

HERE = os.path.dirname(os.path.abspath(__file__))
WORKERS = 8

CLIENT = r"""#!/bin/bash
# A client of tests/fakes/serve.py, written by it: runs the fake %(name)s in
# one of the server's workers (see serve.py).
LC_ALL=C
exec 3<>/dev/tcp/127.0.0.1/%(port)d || { echo "%(name)s: the fake server is gone" >&2; exit 125; }
printf '%%s\0' %(name)s "$$" "$PWD" "$#" "$@" >&3
IFS=' ' read -r rc ol el <&3 || { echo "%(name)s: the fake server gave no answer" >&2; exit 125; }
out= err=
[ "$ol" = 0 ] || IFS= read -r -d '' -N "$ol" out <&3
[ "$el" = 0 ] || IFS= read -r -d '' -N "$el" err <&3
printf '%%s' "$out"
printf '%%s' "$err" >&2
exit "$rc"
"""


def read_request(conn):
    """name, pid, cwd, args: NUL-separated, the count of args fourth."""
    buf = b""
    while True:
        parts = buf.split(b"\0")
        if len(parts) > 4:
            n = int(parts[3])
            if len(parts) > 4 + n:
                return parts[0].decode(), int(parts[1]), parts[2], [p.decode("utf-8", "surrogateescape") for p in parts[4:4 + n]]
        chunk = conn.recv(65536)
        if not chunk:
            raise EOFError
        buf += chunk


def run_fake(code, path, pid, cwd, args):
    """The fake's code as __main__ of a fresh module: (status, stdout, stderr)."""
    with open("/proc/%d/environ" % pid, "rb") as f:
        env = [e.split(b"=", 1) for e in f.read().split(b"\0") if b"=" in e]
    os.environ.clear()
    os.environ.update({k.decode(): v.decode("utf-8", "surrogateescape") for k, v in env})
    os.chdir(cwd)
    sys.argv = [path] + args
    out, err = io.StringIO(), io.StringIO()
    sys.stdout, sys.stderr = out, err
    rc = 0
    scope = {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__}
    try:
        exec(code, scope)
    except SystemExit as e:
        if e.code is None:
            rc = 0
        elif isinstance(e.code, int):
            rc = e.code & 255
        else:
            print(e.code, file=err)
            rc = 1
    except BaseException:  # what an uncaught exception does to a process
        traceback.print_exc(file=err)
        rc = 1
    finally:
        # the fake's functions hold scope: clearing it frees what the call
        # left open now, not at the next garbage collection
        scope.clear()
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    return rc, out.getvalue().encode("utf-8", "surrogateescape"), err.getvalue().encode("utf-8", "surrogateescape")


def client_gone(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def answer(conn, fakes):
    """One call: the fake run for the client on conn, its answer sent. While
    it runs, a timer checks the client five times a second: when timeout(1)
    or a signal ends the client, the worker ends too, mid-call, as the fake's
    own process would have (a hung dmg left running went on 30 s later and
    stopped ranks in the next test's system)."""
    try:
        name, pid, cwd, args = read_request(conn)
        code, path = fakes[name]

        def watch(_sig, _frame):
            if client_gone(pid):
                os._exit(1)
        signal.signal(signal.SIGALRM, watch)
        signal.setitimer(signal.ITIMER_REAL, 0.2, 0.2)
        rc, out, err = run_fake(code, path, pid, cwd, args)
        conn.sendall(b"%d %d %d\n" % (rc, len(out), len(err)) + out + err)
    except Exception:  # a client killed while it was answered: nobody to answer
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        conn.close()


def worker(srv, fakes):
    """Answers calls one after the other, for good: a warm process (a child
    forked per call spent 20 ms in copy-on-write faults here, 25 times what
    the fake's own code takes)."""
    while True:
        conn, _ = srv.accept()
        answer(conn, fakes)


def spawn(srv, fakes):
    pid = os.fork()
    if pid == 0:
        worker(srv, fakes)
        os._exit(0)
    return pid


def serve(srv, fakes, parent):
    """WORKERS processes answer side by side (a hung call holds one); one
    that ended with its client is replaced; all end when parent does."""
    workers = {spawn(srv, fakes) for _ in range(WORKERS)}
    while True:
        time.sleep(0.2)
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            break
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid = 0
            if pid == 0:
                break
            workers.discard(pid)
            workers.add(spawn(srv, fakes))
    for pid in workers:
        os.kill(pid, signal.SIGKILL)


def start(bindir, parent, names):
    """Writes a client per fake into bindir and serves until parent ends."""
    fakes = {}
    for name in names:
        path = os.path.join(HERE, name)
        with open(path) as f:
            fakes[name] = (compile(f.read(), path, "exec"), path)
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(128)
    port = srv.getsockname()[1]
    for name in names:
        client = os.path.join(bindir, name)
        with open(client, "w") as f:
            f.write(CLIENT % {"name": name, "port": port})
        os.chmod(client, 0o755)
    if os.fork() > 0:  # the caller goes on once the clients exist
        os._exit(0)
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    serve(srv, fakes, parent)


if __name__ == "__main__":
    if len(sys.argv) < 5 or sys.argv[1] != "start":
        sys.exit("usage: serve.py start BINDIR PARENT_PID FAKE...")
    start(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
