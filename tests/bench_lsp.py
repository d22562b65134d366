#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""make bench, the editor's part (issue 40): the time from a didChange of
the reference example to its publishDiagnostics, median and worst of 20
edits (the bar: a median within 50 ms), and the server's resident size
after 20 and after 500 edits (the bar: no growth per edit).
usage: bench_lsp.py DSLC"""
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "examples", "hgx-b200", "cluster.dsl")
URI = "file://" + PATH


def main():
    p = subprocess.Popen([sys.argv[1], "lsp"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(m):
        b = json.dumps(m).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
        p.stdin.flush()

    def recv():
        n = None
        while True:
            line = p.stdout.readline().strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
        return json.loads(p.stdout.read(n))

    def wait_diags(version):
        while True:
            m = recv()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version:
                return m

    def rss():
        with open(f"/proc/{p.pid}/status") as f:
            return int([l for l in f if l.startswith("VmRSS:")][0].split()[1])

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    recv()
    text = open(PATH).read()
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
          "params": {"textDocument": {"uri": URI, "languageId": "dslc", "version": 1, "text": text}}})
    wait_diags(1)
    times, v = [], 2
    for i in range(500):
        # alternately a clean and a broken edit: each is linted from scratch
        t = text.replace("targets 16", "targets 1600", 1) if i % 2 else text + f"\n# edit {i}\n"
        start = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange",
              "params": {"textDocument": {"uri": URI, "version": v}, "contentChanges": [{"text": t}]}})
        wait_diags(v)
        if i < 20:
            times.append((time.perf_counter() - start) * 1000)
        if i == 19:
            after20 = rss()
        v += 1
    after500 = rss()
    # issue 54 item 5: a document with 8,000 findings costs what lint costs
    # (each diagnostic was compared with all before it: 5-14 s an edit)
    many = text + "".join(f"bogus_{k} 1\n" for k in range(8000))
    mtimes = []
    for i in range(3):
        start = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange",
              "params": {"textDocument": {"uri": URI, "version": v}, "contentChanges": [{"text": many + f"# {i}\n"}]}})
        ndiag = len(wait_diags(v)["params"]["diagnostics"])
        mtimes.append((time.perf_counter() - start) * 1000)
        v += 1
    tmp = os.path.join(ROOT, "examples", "hgx-b200", ".bench-many.dsl")
    open(tmp, "w").write(many)
    ltimes = []
    for i in range(3):
        start = time.perf_counter()
        subprocess.run([sys.argv[1], "lint", "-q", tmp], capture_output=True)
        ltimes.append((time.perf_counter() - start) * 1000)
    os.unlink(tmp)
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    recv()
    send({"jsonrpc": "2.0", "method": "exit"})
    p.wait()
    print(f"\n{'dslc lsp: didChange -> publishDiagnostics':<44} {'median ms':>10} {'worst ms':>9} {'RSS KiB@20':>11} {'RSS KiB@500':>12}")
    print(f"{'reference example (14+4 nodes), 20 edits':<44} {statistics.median(times):>10.1f} {max(times):>9.1f} {after20:>11} {after500:>12}")
    print("Issue 40's bars: median <= 50 ms; the resident size after 500 edits that after 20 (no growth per edit).")
    print(f"\n{'8,000 findings in one document':<44} {'lsp ms':>10} {'lint ms':>9} {'diagnostics':>11}")
    print(f"{'median of 3':<44} {statistics.median(mtimes):>10.1f} {statistics.median(ltimes):>9.1f} {ndiag:>11}")
    print("Issue 54's bar: the server costs what lint costs (the same order), not seconds an edit.")


main()
