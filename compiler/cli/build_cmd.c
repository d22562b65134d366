/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* build_cmd.c - `dslc build`: compile, check what would be written, write the
 * tree, say where each spec's engines went. */
#include "cli.h"

#include "compiler/place/node_os.h"
#include "compiler/place/place.h"
#include "compiler/tree/output.h"
#include "compiler/tree/render.h"
#include "compiler/tree/selfcheck.h"

static void describe_placement(const model *m, FILE *out)
{
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_plan *p = m->specs[i]->plan;
		if (p && p->client) {
			fprintf(out, "dslc: %s: client only (no engines): daos_agent.yml", m->specs[i]->origin);
			/* what the file holds, never more (daos_agent.c fabric_ifaces) */
			bool listed = place_fabric_domains_known(p);
			if (!listed && p->nclient_nics)
				fprintf(out, " without fabric_ifaces (the agent scans the fabric:");
			for (int k = 0, shown = 0; k < p->nclient_nics; k++) {
				const nic_desc *n = p->client_nics[k];
				if (listed)
					fprintf(out, "%s %s", shown++ ? "," : " with fabric_ifaces", n->name);
				else if (!n->rdma)
					fprintf(out, "%s no domain for %s", shown++ ? "," : "", n->name);
				else if (!place_nic_numa_known(p, n))
					fprintf(out, "%s %s on no known NUMA node", shown++ ? "," : "", n->name);
			}
			fprintf(out, "%s\n", listed || !p->nclient_nics ? "" : ")");
			continue;
		}
		if (!p || !p->nengines)
			continue;
		fprintf(out, "dslc: %s: %d engine%s on", m->specs[i]->origin, p->nengines, p->nengines == 1 ? "" : "s");
		for (int e = 0; e < p->nengines; e++)
			fprintf(out, "%s %s", e ? "," : "", p->engines[e].nic ? p->engines[e].nic->name : "no NIC");
		fprintf(out, ", %s\n", p->pinned_mode ? "pinned_numa_node (each engine starts at its NUMA node's first core)"
							: "first_core (engine cores do not start at their NUMA node's first core; "
							  "DAOS then drops NUMA pinning)");
	}
}

/* What the kubelet does with the training pod where dslc planned the kubelet:
 * the policy, and what stays pinned (kube_admit.c decides as the kubelet). */
static void describe_training(const model *m, FILE *out)
{
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_spec *s = m->specs[i];
		const kubelet_plan *k = node_kubelet_plan(m, s);
		if (!k || !spec_in_pods(s))
			continue;
		if (m->cluster.kube.client_gpu_class.set && m->cluster.kube.client_gpus.set)
			fprintf(out, "dslc: %s: the training pod's GPUs, claimed through DRA (%s), are aligned to no NUMA node: "
				"the topology manager does not see claims\n", s->origin, m->cluster.kube.client_gpu_class.v);
		kube_admission a = node_kubelet_admit(m, s, NULL);
		if (!a.admitted || !a.asks || strcmp(k->topology, "none") == 0)
			continue; /* refused: k8s-client-topology said so; none: nothing aligned */
		fprintf(out, "dslc: %s: training pod under topology %s: ", s->origin, k->topology);
		if (a.aligned)
			fprintf(out, "aligned to NUMA node%s %s", a.mask & (a.mask - 1) ? "s" : "", kube_numa_list(m->ar, a.mask));
		else
			fprintf(out, "not aligned (restricted would refuse it: no NUMA node set every manager prefers)%s%s",
				a.mask ? ", NUMA affinity " : "", a.mask ? kube_numa_list(m->ar, a.mask) : "");
		fprintf(out, "%s\n", a.guaranteed && strcmp(k->cpu_manager, "static") == 0
					 ? (strcmp(k->memory_manager, "static") == 0 ? "; exclusive CPUs and memory from those nodes"
										     : "; exclusive CPUs from those nodes")
					 : a.guaranteed ? "" : "; Burstable: CPUs and memory from the shared pool");
	}
}

static int build_with(const cli *c)
{
	if (!c->out)
		return cli_usage_error("%s", "build needs -o DIR");
	compilation comp;
	int rc = cli_compile_or_fail(&comp, c->file, c->disabled);
	if (rc >= 0)
		return rc;
	cli_drop_disabled(c, &comp);
	/* the build checks what it writes, rendered once for both */
	render_memo *memo = render_memo_new(&comp.ar);
	if (!diag_count(&comp.dc, SEV_ERROR) && selfcheck_model(&comp.m, c->disabled, memo))
		diag_sort(&comp.dc);
	diag_print_text(&comp.dc, stderr, c->max_findings);
	if (!c->quiet)
		cli_print_summary(&comp, stderr, NULL);
	if (diag_count(&comp.dc, SEV_ERROR)) {
		fprintf(stderr, "dslc: nothing written: fix the errors above\n");
		compile_free(&comp);
		return EXIT_FINDINGS;
	}
	output_stats st;
	output_opts opts = {c->check, c->strict, "dslc " DSLC_VERSION, memo};
	rc = output_build(&comp.m, c->out, &opts, &st);
	if (rc == 0 && !c->check && !c->quiet) {
		fprintf(stderr, "dslc: %zu files for %zu nodes in %s: %zu written, %zu unchanged, %zu removed\n", st.files,
			comp.m.nnodes, c->out, st.written, st.unchanged, st.removed);
		describe_placement(&comp.m, stderr);
		describe_training(&comp.m, stderr);
	} else if (c->check) {
		if (rc == 0 && !c->quiet)
			fprintf(stderr, "dslc: %s is up to date (%zu files)\n", c->out, st.files);
		else if (rc == 1 && st.files)
			fprintf(stderr, "dslc: %s is stale: %zu of %zu files differ, are missing or extra; run dslc build\n",
				c->out, st.stale, st.files);
	}
	if (rc == 0 && cli_fails(&comp, c->fail_on))
		rc = EXIT_FINDINGS;
	compile_free(&comp);
	return rc;
}

/* `dslc build`: the lint settings' disabled rules and fail_on apply too
 * (they silence reports and set the exit status; what is built is the same). */
int cli_cmd_build(const cli *c)
{
	return cli_with_settings(c, false, build_with); /* build compiles FILE: the roots are lint's */
}
