#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Writes DIR.dslc-cache claiming DIR as a dslc tree (issue 28's forged
cache): the fingerprints tree_cache.c computes from stat (tree_fp, the
splitmix64 finaliser over dev, ino, mode, size, mtime, ctime) of DIR, its
nodes/ and manifest.json, and no units. A build that trusted it would
replace DIR.
    tests/forge_cache.py DIR"""
import os
import re
import struct
import sys
import time

M = (1 << 64) - 1


def mix(h, v):
    h = (h + (v & M) + 0x9E3779B97F4A7C15) & M
    h = ((h ^ (h >> 30)) * 0xBF58476D1CE4E5B9) & M
    h = ((h ^ (h >> 27)) * 0x94D049BB133111EB) & M
    return h ^ (h >> 31)


def fp(path, times):
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return 0
    m = st.st_mtime_ns
    c = st.st_ctime_ns
    times.append(max(m, c))
    h = mix(0, st.st_dev)
    for v in (st.st_ino, st.st_mode, st.st_size, m // 10**9, m % 10**9, c // 10**9, c % 10**9):
        h = mix(h, v)
    return h


def main():
    d = sys.argv[1].rstrip("/")
    times = []
    root, nodes, manifest = fp(d, times), fp(d + "/nodes", times), fp(d + "/manifest.json", times)
    # the version dslc reads now: the forgery must fail for its content, not its age
    src = open(os.path.join(os.path.dirname(__file__), "../compiler/tree/tree_cache.c")).read()
    version = int(re.search(r"CACHE_VERSION = (\d+)", src).group(1))
    data = b"DSLCACHE" + struct.pack("=II", version, 0x01020304) + bytes(32)
    data += struct.pack("=QQQqQ", root, nodes, manifest, max(times), 0)
    with open(d + ".dslc-cache", "wb") as f:
        f.write(data)
    time.sleep(0.05)  # the cache newer than what it records
    os.utime(d + ".dslc-cache")


main()
