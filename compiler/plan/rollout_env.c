/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* rollout_env.c - see rollout_env.h. The defaults are the ones the script's
 * shell functions set (targets/dmg_lib.sh, targets/kube_lib.sh,
 * compiler/plan/rollout_lib.sh); DSLC_REBUILD_TIMEOUT's is the plan's. */
#include "rollout_env.h"

const rollout_var rollout_vars[] = {
	{"DSLC_APPLY", NULL, false, "the command that installs a wave's new files and applies its classes, called as "
				    "\"$DSLC_APPLY\" HOSTLIST CLASS... (a pdsh or Ansible wrapper); for reformat and scm-lost it "
				    "leaves daos_server running with the engines' storage wiped, waiting for format (DAOS's "
				    "docs/admin/administration.md). Unset: each wave runs the new tree's "
				    "cluster/ansible/apply.yml (DSLC_TREE, DSLC_ANSIBLE) on its nodes with its classes, then its "
				    "verify tag; refused before anything changes when ansible-playbook is missing, DSLC_TREE is "
				    "unset or is not the planned tree, or a wave has a class the playbook does not apply"},
	{"DSLC_TREE", NULL, false, "without DSLC_APPLY, required: the folder `dslc build` wrote from the planned "
				   "description (its manifest.json must give every wave's node the files the plan has)"},
	{"DSLC_ANSIBLE", "ansible-playbook", false, "without DSLC_APPLY: ansible-playbook and its options (e.g. "
						   "'ansible-playbook --become --forks 50 -e @site.json')"},
	{"DSLC_VERIFY", NULL, false, "optional: the command that proves a wave's nodes run the planned files, called as "
				     "\"$DSLC_VERIFY\" HOSTLIST CLASS... after DSLC_APPLY and before their engines start "
				     "(without DSLC_APPLY, default: the tree's apply.yml --tags verify); "
				     "a non-zero exit stops the rollout there, naming the nodes (e.g. a pdsh or ssh wrapper "
				     "running `dslc doctor --manifest TREE --node HOST` on each: the node's files against "
				     "the built tree's sha256 and modes, and the running kernel's command line; add "
				     "--disable node-cmdline where no reboot was planned); unset, nothing checks, and the "
				     "script says so"},
	{"DSLC_STATE", "$0.state", false, "the state file: the waves done and what self_heal was, so that a second run "
					  "after a failure or Ctrl-C resumes"},
	{"DSLC_JOIN_TIMEOUT", "600", false, "seconds the Joined gate of a wave waits"},
	{"DSLC_REBUILD_TIMEOUT", NULL, false, "seconds one rebuild gate waits, all pools together (default: the "
					      "plan's --rebuild-timeout, or an hour plus a wave's share of the largest pool "
					      "at 1 GiB/s)"},
	{"DSLC_HEALTH_TIMEOUT", "0", false, "seconds the fleet gate waits for a running rebuild"},
	{"DSLC_APPLY_TIMEOUT", "3600", false, "seconds each DSLC_APPLY, DSLC_VERIFY or playbook run may take (timeout(1) stops it)"},
	{"DSLC_DMG_TIMEOUT", "300", false, "seconds each dmg call may take"},
	{"DSLC_POLL", "10", false, "seconds between two queries of a gate"},
	{"DSLC_DMG_RETRIES", "3", false, "times a dmg call is made again, DSLC_POLL s apart, when DAOS answers that its "
					 "management service is changing leader (\"leader step-up in progress (try "
					 "again)\", \"raft service unavailable\")"},
	{"DSLC_LOCK_SETTLE", "5", false, "seconds between writing the cluster lock (the DAOS system attribute dslc.lock) "
					 "and reading it back: of two actors taking it together, the later write wins"},
	{"DSLC_KUBE_DIR", NULL, true, "required: the new tree's cluster/kubernetes, applied before the first wave"},
	{"DSLC_POD_TIMEOUT", "900", true, "seconds a node's pods may take to be Ready"},
	{"DSLC_KUBECTL", "kubectl", true, "kubectl and its options (e.g. 'kubectl --context prod')"},
	{"DSLC_KUBE_TIMEOUT", "60", true, "seconds each kubectl call may take (--request-timeout)"},
	{"DSLC_LEASE_SECONDS", "14400", true, "the cluster Lease's leaseDurationSeconds (coordination.k8s.io, dslc-lock): "
					   "how long it holds without a renewal; renewed before every wave"},
};
const size_t rollout_var_count = sizeof(rollout_vars) / sizeof(rollout_vars[0]);
