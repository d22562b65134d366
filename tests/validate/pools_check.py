#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Checks a generated daos-pools.sh against DAOS's CLI grammar, independently
of dslc: flags of `dmg pool create` (src/control/cmd/dmg/pool.go) and of
`daos container create`, container property keys and values
(../shared/facts/daos-config.md sections 4.4 and 4.5), registered object class
names (section 4.1), and sizes in binary units only (go-humanize reads K, M,
G as decimal). Also runs `sh -n` and, when installed, shellcheck.

usage: pools_check.py [--release 2.6|2.6.3|2.8] daos-pools.sh   (exit 1 on any error)
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

POOL_FLAGS = {"--group", "--user", "--properties", "--acl-file", "--size", "--tier-ratio", "--nranks",
              "--nsvc", "--scm-size", "--nvme-size", "--ranks", "--mem-ratio"}
CONT_FLAGS = {"--type", "--path", "--chunk-size", "--oclass", "--dir-oclass", "--file-oclass", "--hints",
              "--properties", "--mode", "--acl-file", "--group"}
TYPES = {"POSIX", "HDF5", "PYTHON", "SPARK", "DATABASE", "DB", "ROOT", "RNTUPLE", "SEISMIC", "DSG", "METEO", "FDB"}
PROPS = {
    "label": None, "rd_fac": {"0", "1", "2", "3", "4"}, "rd_lvl": {"1", "rank", "2", "node"},
    "cksum": {"off", "adler32", "crc16", "crc32", "crc64", "sha1", "sha256", "sha512"},
    "cksum_size": "size", "srv_cksum": {"on", "off"}, "ec_cell_sz": "size", "ec_pda": "int", "rp_pda": "int",
    "perf_domain": {"root", "group"}, "dedup": {"off", "memcmp", "hash"}, "dedup_threshold": "size",
    "compression": None, "encryption": None, "status": {"healthy"},
}
POOL_PROPS = {"svc_rf": {"0", "1", "2", "3", "4"}, "label": None}
SIZE = re.compile(r"^(\d+)(B|KiB|MiB|GiB|TiB|PiB)$")
EC_PAIRS = {(2, 1), (2, 2), (4, 1), (4, 2), (8, 1), (8, 2), (16, 1), (16, 2)}
EC_P3 = {(4, 3), (8, 3), (16, 3)}


def oclass_ok(name, release):
    if name in {"S1", "S2", "S4", "S6", "S8", "S12", "S16", "S32", "SX", "RP_XSF"}:
        return True
    m = re.fullmatch(r"RP_([2-6])G(1|2|4|6|8|12|16|32|X)", name)
    if m:
        return True
    m = re.fullmatch(r"EC_(\d+)P(\d)G(1|2|4|8|12|16|32|X)", name)
    if not m:
        return False
    pair = (int(m.group(1)), int(m.group(2)))
    return pair in EC_PAIRS or (pair in EC_P3 and release != "2.6")


def acl_file(errors, where, path, value):
    """The script names it under $ACL_DIR, its own acl/ folder by default; dmg and daos read it
    line by line (src/control/lib/control/acl.go ParseACL): it must exist and hold an entry."""
    acl = os.path.join(os.path.dirname(path), "acl", value.split("/", 1)[1]) \
        if value.startswith("$ACL_DIR/") else value
    try:
        entries = [l.strip() for l in open(acl) if l.strip() and not l.startswith("#")]
    except OSError as e:
        errors.append(f"{where}: --acl-file {value!r}: {e.strerror}")
        return
    if not entries:
        errors.append(f"{where}: --acl-file {value!r} holds no entry (dmg refuses it)")


def check_props(errors, where, value, table):
    for item in value.split(","):
        if ":" not in item:
            errors.append(f"{where}: property {item!r} has no ':'")
            continue
        key, val = item.split(":", 1)
        if key not in table:
            errors.append(f"{where}: unknown property key {key!r}")
            continue
        allowed = table[key]
        if allowed == "size" and not SIZE.match(val):
            errors.append(f"{where}: {key} {val!r} is not a binary-unit size")
        elif allowed == "int" and not val.isdigit():
            errors.append(f"{where}: {key} {val!r} is not an integer")
        elif isinstance(allowed, set) and val not in allowed:
            errors.append(f"{where}: {key} {val!r} is not one of {sorted(allowed)}")


def flags(words):
    for w in words:
        if w.startswith("--"):
            name, _, value = w.partition("=")
            yield name, value


def main(argv):
    release = "2.6"
    if argv[:1] == ["--release"]:
        release, argv = argv[1], argv[2:]
    path = argv[0]
    errors = []
    r = subprocess.run(["sh", "-n", path], capture_output=True, text=True)
    if r.returncode:
        errors.append(f"sh -n: {r.stderr.strip()}")
    if shutil.which("shellcheck"):
        r = subprocess.run(["shellcheck", "-s", "sh", path], capture_output=True, text=True)
        if r.returncode:
            errors.append(f"shellcheck:\n{r.stdout}")
    else:
        print("skip pools_check shellcheck: shellcheck is not installed")
    creates = 0
    for n, line in enumerate(open(path), 1):
        words = shlex.split(line, comments=True)
        where = f"{path}:{n}"
        if len(words) >= 3 and words[1:3] in (["container", "set-attr"], ["fs", "set-attr"]):
            # release/2.6 and 2.8 src/control/cmd/daos: container.go containerSetAttrCmd takes
            # both --attr and --value (or the positional key:val list, never both);
            # filesystem.go fsSetAttrCmd takes --dfs-path (required without --path) and
            # --oclass and/or --chunk-size; both want the pool and the container
            cmd = " ".join(words[1:3])
            got = dict(flags(words))
            pos = [w for w in words[3:] if not w.startswith("--")]
            if len(pos) != 2:
                errors.append(f"{where}: daos {cmd} wants the pool and the container, got {pos}")
            if words[1] == "container":
                if set(got) - {"--attr", "--value"} or not got.get("--attr") or not got.get("--value"):
                    errors.append(f"{where}: daos {cmd} wants --attr and --value, got {sorted(got)}")
                continue
            if set(got) - {"--dfs-path", "--oclass", "--chunk-size"} or not got.get("--dfs-path", "").startswith("/") \
                    or not ({"--oclass", "--chunk-size"} & set(got)):
                errors.append(f"{where}: daos {cmd} wants --dfs-path=/... and --oclass/--chunk-size, got {sorted(got)}")
            if "--oclass" in got and not oclass_ok(got["--oclass"], release):
                errors.append(f"{where}: {got['--oclass']!r} is not a registered object class")
            if "--chunk-size" in got and not SIZE.match(got["--chunk-size"]):
                errors.append(f"{where}: --chunk-size {got['--chunk-size']!r} is not a binary-unit size")
            continue
        if len(words) >= 3 and words[1:3] == ["fs", "copy"]:
            # fsCopyCmd: --src and --dst, both required
            got = dict(flags(words))
            if set(got) != {"--src", "--dst"}:
                errors.append(f"{where}: daos fs copy wants --src and --dst, got {sorted(got)}")
            continue
        if len(words) < 3 or words[1:3] not in (["pool", "create"], ["container", "create"]):
            continue
        creates += 1
        if words[1] == "pool":
            for name, value in flags(words):
                if name not in POOL_FLAGS:
                    errors.append(f"{where}: dmg pool create has no flag {name}")
                elif name == "--size" and not (SIZE.match(value) or re.fullmatch(r"([1-9]\d?|100)%", value)):
                    errors.append(f"{where}: --size {value!r} is neither a binary size nor a percentage")
                elif name == "--properties":
                    check_props(errors, where, value, POOL_PROPS)
                elif name == "--mem-ratio":
                    # release/2.8 src/control/cmd/dmg/pool.go tierRatioFlag: a float, '%' trimmed,
                    # 0-100; the flag does not exist in 2.6
                    if release == "2.6" or release == "2.6.3":
                        errors.append(f"{where}: dmg {release} has no --mem-ratio")
                    elif not re.fullmatch(r"\d+(\.\d+)?%?", value) or not 0 < float(value.rstrip("%")) <= 100:
                        errors.append(f"{where}: --mem-ratio {value!r} is not a percentage in (0, 100]")
                elif name == "--acl-file":
                    acl_file(errors, where, path, value)
            continue
        for name, value in flags(words):
            if name not in CONT_FLAGS:
                errors.append(f"{where}: daos container create has no flag {name}")
            elif name == "--type" and value.upper() not in TYPES:
                errors.append(f"{where}: unknown container type {value!r}")
            elif name in ("--oclass", "--dir-oclass", "--file-oclass") and not oclass_ok(value, release):
                errors.append(f"{where}: {value!r} is not a registered object class")
            elif name == "--dir-oclass" and value.startswith("EC_"):
                errors.append(f"{where}: EC directory class {value}")
            elif name == "--chunk-size" and not SIZE.match(value):
                errors.append(f"{where}: --chunk-size {value!r} is not a binary-unit size")
            elif name == "--properties":
                check_props(errors, where, value, PROPS)
            elif name == "--acl-file":
                acl_file(errors, where, path, value)
    for e in errors:
        print(e)
    print(f"pools_check: {creates} create commands, {len(errors)} errors")
    return 1 if errors or creates == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
