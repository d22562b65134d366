# SPDX-License-Identifier: BSD-2-Clause-Patent
"""A three-node cluster of the reference node type (examples/hgx-b200), as
the differential tests write it: tiers_diff.py varies the engine's NVMe
tiers, acl_diff.py a pool's ACL."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "hgx-b200")


def three_nodes(release="2.6", engine="", tail=""):
    """engine: lines inside the `engine per numa` block; tail: after the nodes."""
    return """daos {release}
cluster tier0 {{
  provider "ofi+verbs;ofi_rxm"; fabric roce {{ gid_index 3 }}
  access_points n[1-3]
}}
include "{example}/hardware.dsl"
profile p : hgx-b200 {{
  reserve os 4 cores per numa
  engine per numa {{
    targets 16
    helpers 2
    scm ram 64GiB
{engine}
  }}
}}
nodes n[1-3] : p
{tail}""".format(release=release, example=EXAMPLE, engine=engine, tail=tail)
