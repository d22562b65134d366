# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Kubernetes RBAC as the API server's authorizer decides a request, for the
fake kubectl's `auth can-i` and the rollout test's check of what the scripts
did: plugin/pkg/auth/authorizer/rbac/rbac.go (Authorize: allowed when a rule
visited for the user allows the request), pkg/registry/rbac/validation/rule.go
VisitRulesFor (every ClusterRoleBinding; the RoleBindings of the request's
namespace only when it has one: a cluster-wide list or a cluster-scoped
object has none), pkg/apis/rbac/v1/evaluation_helpers.go (VerbMatches,
APIGroupMatches, ResourceMatches: "resource/subresource" or "*/subresource",
ResourceNameMatches: a rule with resourceNames never allows a request
without a name, such as create or list)."""

RBAC_KINDS = ("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding")
# the API group of each resource the scripts use (the API server's discovery)
GROUPS = {"daemonsets": "apps", "poddisruptionbudgets": "policy", "leases": "coordination.k8s.io"}


def _matches(rule, verb, group, resource, sub, name):
    combined = resource + ("/" + sub if sub else "")
    return (any(v in ("*", verb) for v in rule.get("verbs", [])) and
            any(g in ("*", group) for g in rule.get("apiGroups", [])) and
            any(r in ("*", combined) or (sub and r == "*/" + sub) for r in rule.get("resources", [])) and
            (not rule.get("resourceNames") or name in rule["resourceNames"]))


def _bound(binding, subject):
    kind, ns, name = subject
    return any(s.get("kind") == kind and s.get("name") == name and s.get("namespace", ns) == ns
               for s in binding.get("subjects") or [])


def allows(objs, subject, verb, resource, ns="", name=""):
    """objs: the cluster's RBAC objects (dicts as applied); subject:
    ("ServiceAccount", namespace, name); resource: "RESOURCE[/SUB]"; ns: ""
    for every namespace or a cluster-scoped resource; name: "" for none."""
    resource, _, sub = resource.partition("/")
    group = GROUPS.get(resource, "")
    roles = {(o["kind"], o["metadata"].get("namespace", ""), o["metadata"]["name"]): o
             for o in objs if o["kind"] in ("Role", "ClusterRole")}
    for b in objs:
        if b["kind"] == "ClusterRoleBinding":
            pass
        elif b["kind"] == "RoleBinding" and ns and b["metadata"].get("namespace") == ns:
            pass
        else:
            continue
        if not _bound(b, subject):
            continue
        ref = b["roleRef"]
        role_ns = "" if ref["kind"] == "ClusterRole" else b["metadata"].get("namespace", "")
        role = roles.get((ref["kind"], role_ns, ref["name"]))
        if role and any(_matches(r, verb, group, resource, sub, name) for r in role.get("rules") or []):
            return True
    return False
