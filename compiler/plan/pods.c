/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* pods.c - see pods.h. The files are dslc's own (targets/kubernetes.c): a
 * group file is its ConfigMap, "---", its DaemonSet; label-nodes.sh has a
 * table, a line "HOST SERVER AGENT" a node, in a here-document (dslc before
 * issue 37 wrote `kubectl "$@" label node --overwrite HOST KEY=DIGEST|KEY-`
 * lines, still read). */
#include "pods.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/lang/yaml_doc.h"
#include "compiler/place/kube.h"

const char *const pods_targets[] = {"daos_server_pod", "daos_agent_pod", NULL};

typedef struct pod_group {
	const char *config;   /* daos_server.yml or daos_agent.yml */
	size_t config_len;
	const char *template; /* the DaemonSet, its digest blanked */
	size_t template_len;
} pod_group;

void pods_init(pods_index *ix, arena *a)
{
	memset(ix, 0, sizeof(*ix));
	ix->a = a;
	strmap_init(&ix->server_of, a);
	strmap_init(&ix->agent_of, a);
	strmap_init(&ix->node_of, a);
	strmap_init(&ix->groups, a);
}

/* A line of the table "HOST SERVER AGENT [CLIENT [NODE]]" ('-': no
 * daos-server; NODE: the Kubernetes node where it is not HOST); the client
 * templates' label moves no pod, and is not compared. */
static void read_row(pods_index *ix, char *line)
{
	char *host = strtok(line, " "), *server = strtok(NULL, " "), *agent = strtok(NULL, " "), *node = NULL;
	if (agent && strtok(NULL, " ")) /* the client group */
		node = strtok(NULL, " ");
	if (!host || !server || !agent || strtok(NULL, " "))
		return;
	ARENA_PUSH(ix->a, ix->hosts, ix->nhosts, ix->cap, host);
	if (node)
		strmap_put(&ix->node_of, host, node);
	if (strcmp(server, "-") != 0)
		strmap_put(&ix->server_of, host, server);
	strmap_put(&ix->agent_of, host, agent);
}

static void read_labels(pods_index *ix, const char *data, size_t len)
{
	bool table = false;
	for (const char *p = data, *end = data + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = arena_strndup(ix->a, p, n);
		const char *at = strstr(line, " label node ");
		p += n + (nl != NULL);
		if (strcmp(line, "EOF") == 0)
			table = false;
		else if (table)
			read_row(ix, line);
		else if (strstr(line, "<<'EOF'"))
			table = true;
		/* an older dslc wrote one kubectl label line a node */
		if (table || strncmp(line, "kubectl ", 8) != 0 || !at)
			continue;
		char *words = arena_strdup(ix->a, at + strlen(" label node "));
		const char *host = NULL;
		for (char *w = strtok(words, " "); w; w = strtok(NULL, " ")) {
			if (strcmp(w, "--overwrite") == 0)
				continue;
			if (!host) {
				host = w;
				ARENA_PUSH(ix->a, ix->hosts, ix->nhosts, ix->cap, host);
				continue;
			}
			char *eq = strchr(w, '=');
			if (!eq)
				continue;
			*eq = '\0';
			if (strcmp(w, KUBE_LABEL_SERVER) == 0)
				strmap_put(&ix->server_of, host, eq + 1);
			else if (strcmp(w, KUBE_LABEL_AGENT) == 0)
				strmap_put(&ix->agent_of, host, eq + 1);
		}
	}
}

/* The one scalar at data.<key> of a ConfigMap document. */
static const char *config_of(arena *a, const char *doc, size_t len, const char *key, size_t *out_len)
{
	ynode *root = ydoc_parse_text(a, "configmap", doc, len);
	const ynode *v = root ? ydoc_get(ydoc_get(root, "data"), key) : NULL;
	if (!v || v->kind != Y_SCALAR || !v->text)
		return NULL;
	*out_len = strlen(v->text);
	return v->text;
}

/* text with every occurrence of digest replaced by "<digest>" */
static const char *blank(arena *a, const char *text, size_t len, const char *digest, size_t *out_len)
{
	buf b;
	buf_init(&b);
	size_t dn = strlen(digest), from = 0;
	for (size_t i = 0; dn && i + dn <= len;) {
		if (memcmp(text + i, digest, dn) == 0) {
			buf_add(&b, text + from, i - from);
			buf_puts(&b, "<digest>");
			i += dn;
			from = i;
		} else {
			i++;
		}
	}
	buf_add(&b, text + from, len - from);
	const char *s = arena_strndup(a, b.data, b.len);
	*out_len = b.len;
	buf_free(&b);
	return s;
}

void pods_read(pods_index *ix, const char *rel, const char *data, size_t len)
{
	if (!data)
		return;
	if (strncmp(rel, "cluster/", 8) == 0)
		rel += 8;
	if (strcmp(rel, "kubernetes/label-nodes.sh") == 0) {
		read_labels(ix, data, len);
		return;
	}
	bool server = strncmp(rel, "kubernetes/daos-server-", 23) == 0;
	if (!server && strncmp(rel, "kubernetes/daos-agent-", 22) != 0)
		return;
	const char *name = rel + strlen("kubernetes/"), *dot = strrchr(name, '.');
	if (!dot || strcmp(dot, ".yaml") != 0)
		return;
	const char *group = arena_strndup(ix->a, name, (size_t)(dot - name)), *digest = strrchr(group, '-') + 1;
	const char *sep = NULL;
	for (const char *p = data; p && p < data + len; p = memchr(p, '\n', (size_t)(data + len - p)), p = p ? p + 1 : NULL)
		if ((size_t)(data + len - p) >= 4 && memcmp(p, "---\n", 4) == 0) {
			sep = p;
			break;
		}
	if (!sep)
		return;
	pod_group *g = arena_alloc(ix->a, sizeof(*g));
	g->config = config_of(ix->a, data, (size_t)(sep - data), server ? "daos_server.yml" : "daos_agent.yml", &g->config_len);
	g->template = blank(ix->a, sep + 4, (size_t)(data + len - sep - 4), digest, &g->template_len);
	if (!ix->ns) {
		const char *at = strstr(sep, "\n  namespace: ");
		if (at) {
			at += strlen("\n  namespace: ");
			ix->ns = arena_strndup(ix->a, at, strcspn(at, "\n"));
		}
	}
	if (!strmap_put(&ix->groups, group, g))
		ARENA_PUSH(ix->a, ix->names, ix->ngroups, ix->names_cap, group);
}

const char *pods_server_of(const pods_index *ix, const char *host)
{
	return strmap_get(&ix->server_of, host);
}

const char *pods_agent_of(const pods_index *ix, const char *host)
{
	return strmap_get(&ix->agent_of, host);
}

const char *pods_node_of(const pods_index *ix, const char *host)
{
	const char *n = strmap_get(&ix->node_of, host);
	return n ? n : host;
}

size_t pods_files(const pods_index *ix, const char *host, pod_file out[4])
{
	size_t n = 0;
	for (int server = 1; server >= 0; server--) {
		const char *d = server ? pods_server_of(ix, host) : pods_agent_of(ix, host);
		const pod_group *g = d ? strmap_get(&ix->groups, arena_printf(ix->a, "daos-%s-%s", server ? "server" : "agent", d))
				      : NULL;
		if (!g)
			continue;
		if (g->config)
			out[n++] = (pod_file){server ? "kubernetes: daos_server.yml" : "kubernetes: daos_agent.yml",
					      server ? "daos_server" : "daos_agent", g->config, g->config_len};
		out[n++] = (pod_file){server ? "kubernetes: daos-server pod" : "kubernetes: daos-agent pod",
				      pods_targets[server ? 0 : 1], g->template, g->template_len};
	}
	return n;
}

wave_relabel *pods_rollout_node(arena *a, wave_kube *k, const pods_index *new_side, const char *host)
{
	uintptr_t at = (uintptr_t)strmap_get(&k->in_pods, host);
	if (!at) {
		const char *s = pods_server_of(new_side, host), *g = pods_agent_of(new_side, host);
		wave_relabel r = {arena_strdup(a, host), arena_strdup(a, pods_node_of(new_side, host)), s ? arena_strdup(a, s) : NULL,
				  g ? arena_strdup(a, g) : NULL, false, false};
		ARENA_PUSH(a, k->relabel, k->nrelabel, k->relabel_cap, r);
		at = k->nrelabel;
		strmap_put(&k->in_pods, r.host, (void *)at);
	}
	return &k->relabel[at - 1];
}

static int str_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

void pods_rollout(arena *a, wave_kube *k, const pods_index *new_side, const pods_index *old_side)
{
	k->ns = new_side->ns ? new_side->ns : old_side->ns;
	for (size_t i = 0; i < new_side->nhosts; i++)
		pods_rollout_node(a, k, new_side, new_side->hosts[i]);
	for (size_t i = 0; i < new_side->ngroups; i++)
		ARENA_PUSH(a, k->groups, k->ngroups, k->groups_cap, new_side->names[i]);
	for (size_t i = 0; i < old_side->ngroups; i++)
		if (!strmap_get(&new_side->groups, old_side->names[i]))
			ARENA_PUSH(a, k->stale, k->nstale, k->stale_cap, old_side->names[i]);
	if (k->ngroups) /* qsort's base must not be NULL, even for none */
		qsort(k->groups, k->ngroups, sizeof(*k->groups), str_cmp);
	if (k->nstale)
		qsort(k->stale, k->nstale, sizeof(*k->stale), str_cmp);
	/* a group on both sides whose pod template changed, under RollingUpdate:
	 * kubectl apply alone makes the controller replace its pods, a node at a
	 * time, behind no DAOS gate (pkg/controller/daemon/update.go) */
	for (size_t i = 0; i < new_side->ngroups; i++) {
		const pod_group *n = strmap_get(&new_side->groups, new_side->names[i]);
		const pod_group *o = strmap_get(&old_side->groups, new_side->names[i]);
		if (o && (o->template_len != n->template_len || memcmp(o->template, n->template, n->template_len)) &&
		    strstr(n->template, "\n    type: RollingUpdate\n"))
			ARENA_PUSH(a, k->rolling, k->nrolling, k->rolling_cap, new_side->names[i]);
	}
}
