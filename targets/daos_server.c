/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* daos_server.c - etc/daos/daos_server.yml, in the key names of the declared
 * release, with every value DAOS would otherwise derive at start written
 * out (scm_size, nr_hugepages, system_ram_reserved). */
#include <stdlib.h>
#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/base/value.h"
#include "targets.h"
#include "yaml_out.h"

enum { DEFAULT_CONTROL_PORT = 10001, DEFAULT_TELEMETRY_PORT = 9191 };

const char *daos_access_point(const model *m, size_t i)
{
	int port = m->cluster.port.set ? (int)m->cluster.port.v : DEFAULT_CONTROL_PORT;
	return arena_printf(m->ar, "%s:%d", m->cluster.aps[i].host, port);
}

static void engine_out(yaml_out *y, const model *m, const node_plan *p, const engine_plan *ep)
{
	yo_map(y);
	yo_kint(y, K_TARGETS, ep->targets);
	yo_kint(y, K_NR_XS_HELPERS, ep->helpers);
	/* DAOS's engine takes -p as an hwloc logical index
	 * (src/engine/init.c, hwloc_get_obj_by_depth): never the OS index */
	if (p->pinned_mode)
		yo_kint(y, K_PINNED_NUMA_NODE, ep->numa);
	else
		yo_kint(y, K_FIRST_CORE, ep->first_core);
	yo_kstr(y, K_FABRIC_IFACE, ep->nic->name);
	yo_kint(y, K_FABRIC_IFACE_PORT, ep->fabric_port);
	yo_kstr(y, K_LOG_MASK, ep->log_mask);
	yo_kstr(y, K_LOG_FILE, ep->log_file);
	if (ep->env.n) {
		yo_key(y, K_ENV_VARS);
		yo_seq(y);
		for (size_t i = 0; i < ep->env.n; i++)
			yo_str(y, arena_printf(m->ar, "%s=%s", ep->env.items[i].name, ep->env.items[i].value));
		yo_seq_end(y);
	}
	yo_key(y, K_STORAGE);
	yo_seq(y);
	yo_map(y);
	yo_kstr(y, K_CLASS, ep->scm_class);
	yo_kstr(y, K_SCM_MOUNT, ep->scm_mount);
	if (ep->scm_device) {
		yo_key(y, K_SCM_LIST);
		yo_seq(y);
		yo_str(y, ep->scm_device);
		yo_seq_end(y);
	} else {
		yo_kint(y, K_SCM_SIZE, (int64_t)(ep->scm_bytes / GiB));
	}
	yo_map_end(y);
	if (ep->nfiles) {
		yo_map(y);
		yo_kstr(y, K_CLASS, "file");
		yo_key(y, K_BDEV_LIST);
		yo_seq(y);
		for (int i = 0; i < ep->nfiles; i++)
			yo_str(y, ep->files[i]);
		yo_seq_end(y);
		yo_kint(y, K_BDEV_SIZE, ep->spec->file_size.v / (int64_t)GiB);
		yo_map_end(y);
	}
	for (int t = 0; t < ep->ntiers; t++) {
		const tier_plan *tp = &ep->tiers[t];
		yo_map(y);
		yo_kstr(y, K_CLASS, "nvme");
		yo_key(y, K_BDEV_LIST);
		yo_seq(y);
		for (int i = tp->first; i < tp->first + tp->n; i++)
			yo_str(y, ep->nvmes[i]->pci);
#ifdef DSLC_TEST_HOOKS
		/* A test seam of the test build only (build/dslc-test-hooks):
		 * DSLC_TEST_CORRUPT=duplicate-drive writes engine 0's first drive
		 * twice, a file DAOS refuses, so that the tests see the build's own
		 * check (selfcheck.h) stop the build. */
		const char *corrupt = getenv("DSLC_TEST_CORRUPT");
		if (corrupt && strcmp(corrupt, "duplicate-drive") == 0 && ep->index == 0 && t == 0)
			yo_str(y, ep->nvmes[0]->pci);
#endif
		yo_seq_end(y);
		if (tp->spec && tp->spec->nroles) {
			yo_key(y, K_BDEV_ROLES);
			yo_seq(y);
			for (int i = 0; i < tp->spec->nroles; i++)
				yo_str(y, tp->spec->roles[i]);
			yo_seq_end(y);
		}
		yo_map_end(y);
	}
	yo_seq_end(y);
	yo_map_end(y);
}

static bool has_meta_role(const node_plan *p)
{
	for (int i = 0; i < p->nengines; i++)
		if (place_has_meta(&p->engines[i]))
			return true;
	return false;
}

void transport_out(yaml_out *y, const model *m, bool server)
{
	bool insecure = cluster_insecure(&m->cluster);
	yo_key(y, server ? K_TRANSPORT_CONFIG : K_AGENT_TRANSPORT_CONFIG);
	yo_map(y);
	yo_kbool(y, K_ALLOW_INSECURE, insecure);
	if (!insecure) {
		if (server)
			yo_kstr(y, K_CLIENT_CERT_DIR, "/etc/daos/certs/clients");
		yo_kstr(y, K_CA_CERT, "/etc/daos/certs/daosCA.crt");
		yo_kstr(y, K_CERT, server ? "/etc/daos/certs/server.crt" : "/etc/daos/certs/agent.crt");
		yo_kstr(y, K_KEY, server ? "/etc/daos/certs/server.key" : "/etc/daos/certs/agent.key");
	}
	yo_map_end(y);
}

target_result target_daos_server(const model *m, const node_spec *s, target_file *tf)
{
	/* in pods the file is the group's ConfigMap (cluster/kubernetes/) */
	if (tf->index || spec_in_pods(s) || (s->plan && s->plan->client))
		return TARGET_SKIP; /* a client-only node runs no daos_server */
	return daos_server_yaml(m, s, tf->data) ? TARGET_OK : TARGET_FAIL;
}

bool daos_server_yaml(const model *m, const node_spec *s, buf *out)
{
	const cluster_spec *c = &m->cluster;
	const node_plan *p = s->plan;
	yaml_out y;
	for (size_t i = 0; i < c->client_env.n; i++) /* safety.c reports it at the source */
		if (safe_line(c->client_env.items[i].value))
			return false;
	if (!yo_begin(&y, out, m->release))
		return false;
	yo_map(&y);
	yo_kstr(&y, K_NAME, c->name);
	yo_key(&y, K_ACCESS_POINTS);
	yo_seq(&y);
	for (size_t i = 0; i < c->naps; i++)
		yo_str(&y, daos_access_point(m, i));
	yo_seq_end(&y);
	yo_kint(&y, K_PORT, c->port.set ? c->port.v : DEFAULT_CONTROL_PORT);
	transport_out(&y, m, true);
	yo_kstr(&y, K_PROVIDER, c->provider.v);
	if (c->crt_timeout_ms.set)
		yo_kint(&y, K_CRT_TIMEOUT, c->crt_timeout_ms.v / 1000);
	yo_kstr(&y, K_CONTROL_LOG_MASK, c->control_log_mask.set ? c->control_log_mask.v : "INFO");
	yo_kstr(&y, K_CONTROL_LOG_FILE, c->control_log_file.set ? c->control_log_file.v : "/var/log/daos/daos_server.log");
	yo_kstr(&y, K_HELPER_LOG_FILE, c->helper_log_file.set ? c->helper_log_file.v : "/var/log/daos/daos_server_helper.log");
	yo_kint(&y, K_TELEMETRY_PORT, c->telemetry_port.set ? c->telemetry_port.v : DEFAULT_TELEMETRY_PORT);
	yo_kint(&y, K_NR_HUGEPAGES, p->nr_hugepages);
	yo_kint(&y, K_SYSTEM_RAM_RESERVED,
		c->system_ram_reserved.set ? c->system_ram_reserved.v / (int64_t)GiB : m->release->system_ram_reserved_gib);
	const char *tclass = place_ucx_traffic_class(m);
	if (c->gid_index.set || tclass || c->client_env.n) {
		/* clients need the same GID index and traffic class as the
		 * engines; then the description's client_env, in order */
		yo_key(&y, K_CLIENT_ENV_VARS);
		yo_seq(&y);
		if (c->gid_index.set)
			yo_str(&y, arena_printf(m->ar, "FI_VERBS_GID_IDX=%lld", (long long)c->gid_index.v));
		if (tclass)
			yo_str(&y, arena_printf(m->ar, "UCX_IB_TRAFFIC_CLASS=%s", tclass));
		for (size_t i = 0; i < c->client_env.n; i++)
			yo_str(&y, arena_printf(m->ar, "%s=%s", c->client_env.items[i].name, c->client_env.items[i].value));
		yo_seq_end(&y);
	}
	if (has_meta_role(p)) {
		yo_key(&y, K_CONTROL_METADATA);
		yo_map(&y);
		yo_kstr(&y, K_CM_PATH, "/var/daos/config");
		yo_map_end(&y);
	}
	yo_key(&y, K_ENGINES);
	yo_seq(&y);
	for (int i = 0; i < p->nengines; i++)
		engine_out(&y, m, p, &p->engines[i]);
	yo_seq_end(&y);
	yo_map_end(&y);
	return yo_end(&y);
}
