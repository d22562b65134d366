/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* context.c - see context.h. Sources: src/control/server/instance_storage.go
 * and server_utils.go on release/2.6 (a tmpfs without MD-on-SSD stays
 * mounted across daos_server restarts and is lost at a reboot; with
 * MD-on-SSD it is unmounted when an engine exits and rebuilt from the SSDs
 * at start), docs/admin/troubleshooting.md ("rank control address has
 * changed"), docs/admin/administration.md ("Adding or removing MS
 * replicas"). */
#include "context.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "compiler/place/node_plan.h"
#include "compiler/place/place.h"

static void add_node(plan_node_context *c, const model *m, const char *host)
{
	const node *nd = m ? model_node(m, host) : NULL;
	const node_plan *p = nd && nd->spec ? nd->spec->plan : NULL;
	for (int i = 0; p && i < p->nengines; i++) {
		c->server = true;
		const engine_plan *ep = &p->engines[i];
		if (ep->scm_class && strcmp(ep->scm_class, "ram") == 0 && !place_has_meta(ep))
			c->scm_in_ram = true;
	}
}

plan_node_context plan_node_context_of(const model *nm, const model *om, const char *host)
{
	plan_node_context c = {false, false};
	add_node(&c, nm, host);
	add_node(&c, om, host);
	return c;
}

/* "[a:1, b:1]" holds the entry e (followed by ',' or ']'). */
static bool list_has(const char *list, const char *e, size_t n)
{
	for (const char *p = list ? strstr(list, e) : NULL; p; p = strstr(p + 1, e)) {
		bool starts = p == list || p[-1] == '[' || p[-1] == ' ';
		if (starts && n && (p[n] == ',' || p[n] == ']'))
			return true;
	}
	return false;
}

/* No access point of the old list stays in the new one: the new replicas
 * have no one to copy the management database from. */
static bool replicas_replaced(const char *old, const char *new)
{
	if (!old || !new || old[0] != '[')
		return false;
	for (const char *p = old + 1; *p && *p != ']';) {
		size_t n = strcspn(p, ",]");
		char e[300];
		if (n && n < sizeof(e)) {
			memcpy(e, p, n);
			e[n] = 0;
			if (list_has(new, e, n))
				return false;
		}
		p += n;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return true;
}

bool plan_context_replicas_replaced(const char *target, const char *key, const char *old, const char *new)
{
	return strcmp(target, "daos_server") == 0 &&
	       (strcmp(key, "access_points") == 0 || strcmp(key, "mgmt_svc_replicas") == 0) && replicas_replaced(old, new);
}

disruption_class plan_context_class(const plan_node_context *c, const char *target, const char *file, const char *key,
				    const char *old, const char *new, disruption_class cls)
{
	/* a reboot empties the tmpfs; engines wait for `dmg storage format` */
	if ((cls == DC_REBOOT || cls == DC_BIOS_REBOOT) && c->scm_in_ram)
		return DC_SCM_LOST;
	if (strcmp(target, "daos_server") == 0 && val_ends_with(key, ".scm_size")) {
		/* without MD-on-SSD the mounted tmpfs must go (FaultRamdiskBadSize);
		 * with it, a smaller tmpfs no longer holds the pools' memory files */
		long long o = old ? atoll(old) : 0, n = new ? atoll(new) : 0;
		if (c->scm_in_ram || (old && new && n < o))
			return DC_SCM_LOST;
	}
	if (plan_context_replicas_replaced(target, key, old, new))
		return DC_REFORMAT;
	/* the management bond's address is the server's control address, which
	 * DAOS cannot change: revert it, or erase and reformat the system */
	if (strcmp(target, "networkd") == 0 && c->server && strstr(file, "bond") && strcmp(key, "[Network].Address") == 0)
		return DC_REFORMAT;
	/* a server's storage NIC address is its engines' fabric URI, which the
	 * membership keeps from their join until they rejoin
	 * (src/control/system/membership.go; troubleshooting.md): the engines
	 * restart, by waves */
	if (strcmp(target, "networkd") == 0 && c->server && strcmp(key, "[Network].Address") == 0 &&
	    disruption_classes[cls].rank < disruption_classes[DC_ENGINE_RESTART].rank)
		return DC_ENGINE_RESTART;
	return cls;
}

int plan_coupling_of(const char *target, const char *file, const char *key, size_t from)
{
	if (strcmp(target, "networkd") == 0 && strstr(file, "bond"))
		return -1; /* the management network: agents cache no address of it */
	return disruption_coupling_of(target, key, from);
}

void plan_relabel_note(arena *a, plan_relabels *r, const char *target, const char *key, const char *old, const char *new)
{
	if (strcmp(target, "pools_plan") != 0 || !old || !new || strncmp(key, "pools[", 6) != 0 ||
	    !strstr(key, "].containers[") || !val_ends_with(key, "].label"))
		return;
	/* copied: the cluster's scratch arena is gone when the nodes are compared */
	struct plan_relabel l = {arena_strdup(a, old), arena_strdup(a, new)};
	ARENA_PUSH(a, r->v, r->n, r->cap, l);
}

static bool word_edge(char c)
{
	return c == 0 || c == ' ' || c == '/' || c == '\t';
}

bool plan_relabel_only(const plan_relabels *r, const char *old, const char *new)
{
	if (!old || !new)
		return false;
	size_t lo = strlen(old), ln = strlen(new);
	for (size_t i = 0; i < r->n; i++) {
		const char *from = r->v[i].from, *to = r->v[i].to;
		size_t f = strlen(from), t = strlen(to);
		if (!f || f > lo || lo - f + t != ln)
			continue;
		for (const char *p = strstr(old, from); p; p = strstr(p + 1, from)) {
			size_t at = (size_t)(p - old);
			if ((at && !word_edge(p[-1])) || !word_edge(p[f]))
				continue;
			if (strncmp(new, old, at) == 0 && strncmp(new + at, to, t) == 0 && strcmp(new + at + t, p + f) == 0)
				return true;
		}
	}
	return false;
}
