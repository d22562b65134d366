#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Differential test of MD-on-SSD tier layouts (issue 25): dslc's verdict on
`nvme tier` statements against DAOS's own loader.

Every layout of 1 to 3 NVMe tiers, each with any subset of the roles wal,
meta and data (the empty one included), and a seeded sample of 4-tier
layouts, is written three ways:
  - a description: the reference node type with `nvme tier [ROLES] drives 1`
    for every tier but the last, which takes the rest;
  - the daos_server.yml DAOS would get: a clean build's file with its
    storage tiers rewritten to the layout (control_metadata kept exactly
    when a tier has roles, as DAOS wants it);
  - that YAML given to `dslc lint` (the YAML linter).
DAOS's loader (../shared/validators/daos-config-check, 2.6 and 2.8) judges
the YAML. dslc's DSL verdict (clean, or a bdev-roles finding) and its YAML
linter's must both equal the loader's. When the description is clean, its
build must write a file the loader accepts, with the layout's tiers.

usage: tiers_diff.py DSLC [--sample4 N] [--tiers N]   (--tiers: at most N tiers; make check's
ASan pass takes 2, the plain pass every layout)
Without the loader it says `skipped`."""
import copy
import itertools
import os
import random
import re
import subprocess
import sys
import tempfile

import yaml

from dsl_cluster import three_nodes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daos_loader  # noqa: E402  the loader's path and verdict, shared by the oracle tests
ROLES = ["wal", "meta", "data"]



def layouts(sample4, rng, max_tiers=3):
    subsets = [list(c) for k in range(4) for c in itertools.combinations(ROLES, k)]
    out = []
    for n in range(1, max_tiers + 1):
        out += [list(t) for t in itertools.product(subsets, repeat=n)]
    four = [list(t) for t in itertools.product(subsets, repeat=4)]
    out += rng.sample(four, sample4)
    return out


def dsl_tiers(layout):
    lines = []
    for i, roles in enumerate(layout):
        count = "" if i == len(layout) - 1 else " drives 1"
        lines.append("    nvme tier [%s]%s" % (" ".join(roles), count))
    return "\n".join(lines)


def yaml_for(base, layout):
    doc = copy.deepcopy(base)
    any_roles = any(layout)
    for e, eng in enumerate(doc["engines"]):
        drives = eng["storage"][1]["bdev_list"] + [t for tier in eng["storage"][2:] for t in tier["bdev_list"]]
        tiers = [eng["storage"][0]]
        for i, roles in enumerate(layout):
            take = drives[i:i + 1] if i < len(layout) - 1 else drives[i:]
            tier = {"class": "nvme", "bdev_list": take}
            if roles:
                tier["bdev_roles"] = roles
            tiers.append(tier)
        eng["storage"] = tiers
    if any_roles:
        doc["control_metadata"] = {"path": "/var/daos/config"}
    else:
        doc.pop("control_metadata", None)
    return doc


def oracle_ok(path, release):
    return daos_loader.run(["--release", release, path])


def main():
    dslc = os.path.abspath(sys.argv[1])
    sample4 = 60
    if "--sample4" in sys.argv:
        sample4 = int(sys.argv[sys.argv.index("--sample4") + 1])
    if not daos_loader.available("tiers-diff"):
        return daos_loader.ABSENT_STATUS
    max_tiers = 3
    if "--tiers" in sys.argv:
        max_tiers = int(sys.argv[sys.argv.index("--tiers") + 1])
    rng = random.Random(25)
    all_layouts = layouts(sample4, rng, max_tiers)
    failures, checked, accepted = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for release in ("2.6", "2.8"):
            # the base file: a clean 3-tier build
            base_dsl = os.path.join(tmp, "base.dsl")
            with open(base_dsl, "w") as f:
                f.write(three_nodes(release, dsl_tiers([["wal"], ["meta"], ["data"]])))
            out = os.path.join(tmp, "base-out")
            subprocess.run([dslc, "build", base_dsl, "-o", out], capture_output=True, check=True)
            with open(os.path.join(out, "nodes", "n1", "etc", "daos", "daos_server.yml")) as f:
                base = yaml.safe_load(f)
            for layout in all_layouts:
                name = "|".join("+".join(t) or "-" for t in layout)
                src = os.path.join(tmp, "l.dsl")
                with open(src, "w") as f:
                    f.write(three_nodes(release, dsl_tiers(layout)))
                lint = subprocess.run([dslc, "lint", src], capture_output=True, text=True)
                if lint.returncode not in (0, 1):
                    failures.append("%s %s: dslc lint exit %d\n%s" % (release, name, lint.returncode, lint.stderr))
                    continue
                findings = set(re.findall(r"error\[([a-z0-9-]+)\]", lint.stdout + lint.stderr))
                dsl_ok = lint.returncode == 0
                if not dsl_ok and findings != {"bdev-roles"}:
                    failures.append("%s %s: refused without bdev-roles: %s" % (release, name, sorted(findings)))
                yml = os.path.join(tmp, "daos_server.yml")
                with open(yml, "w") as f:
                    yaml.safe_dump(yaml_for(base, layout), f, sort_keys=False)
                daos_ok, why = oracle_ok(yml, release)
                ylint = subprocess.run([dslc, "lint", yml], capture_output=True, text=True)
                yfind = set(re.findall(r"error\[([a-z0-9-]+)\]", ylint.stdout + ylint.stderr))
                checked += 1
                if dsl_ok != daos_ok:
                    failures.append("%s %s: dslc %s, DAOS %s: %s" % (release, name, "accepts" if dsl_ok else "refuses",
                                                                     "accepts" if daos_ok else "refuses", why.strip()[-200:]))
                if ("bdev-roles" not in yfind) != daos_ok:
                    failures.append("%s %s: YAML linter %s, DAOS %s: %s" % (
                        release, name, sorted(yfind) or "clean", "accepts" if daos_ok else "refuses", why.strip()[-200:]))
                if not dsl_ok:
                    continue
                accepted += 1
                built = os.path.join(tmp, "out")
                b = subprocess.run([dslc, "build", src, "-o", built], capture_output=True, text=True)
                bf = os.path.join(built, "nodes", "n1", "etc", "daos", "daos_server.yml")
                if b.returncode != 0:
                    failures.append("%s %s: lint clean, build exit %d: %s" % (release, name, b.returncode, b.stderr[-300:]))
                    continue
                ok, why = oracle_ok(bf, release)
                with open(bf) as f:
                    got = [[t.get("bdev_roles", []) for t in e["storage"][1:]] for e in yaml.safe_load(f)["engines"]]
                if not ok or any(g != layout for g in got):
                    failures.append("%s %s: built file %s, tiers %s" % (release, name, "refused: " + why[-200:] if not ok
                                                                       else "accepted", got))
    for f in failures[:20]:
        print("FAIL tiers_diff " + f)
    if not failures:
        print("ok   tiers_diff: DSL verdict, YAML linter and every clean build agree with DAOS's loader")
    print("tiers_diff: %d layouts x 2 releases checked (%d accepted and built), %d disagreements" %
          (checked // 2, accepted, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except daos_loader.LoaderBroken as e:  # the oracle failing is a failure, never a rejection
        print(f"FAIL tiers-diff: {e}")
        sys.exit(1)
