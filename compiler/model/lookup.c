/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* lookup.c - finding what a description names: nodes by host (as DNS
 * compares names), pools, hardware and profiles, with the "did you mean"
 * the resolver's passes and the keyword handlers share. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "kw.h"

/* DNS compares names case-insensitively and "gpu001." is "gpu001": the
 * index key is the lower-case name without its trailing dot. */
const char *model_host_key(char *buf, size_t size, const char *host)
{
	size_t n = strlen(host);
	if (n && host[n - 1] == '.')
		n--;
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)tolower((unsigned char)host[i]);
	buf[n] = '\0';
	return buf;
}

bool model_kw_failed(const model *m, const void *target, const char *kw)
{
	char key[160];
	snprintf(key, sizeof(key), "%p:%s", target, kw);
	return m->failed_kws.cap && strmap_get(&m->failed_kws, key);
}

node *model_node(const model *m, const char *host)
{
	char key[256];
	size_t idx = (size_t)strmap_get(&m->node_index, model_host_key(key, sizeof(key), host));
	return idx ? &m->nodes[idx - 1] : NULL;
}

static const char *suggest_node(const model *m, const char *host, bool unique)
{
	const char *names[1024];
	size_t n = 0;
	for (size_t k = 0; k < m->nnodes && n < 1024; k++)
		names[n++] = m->nodes[k].host;
	return (unique ? kw_suggest_unique : kw_suggest)(host, names, n);
}

const char *model_suggest_node(const model *m, const char *host)
{
	return suggest_node(m, host, false);
}

const char *model_suggest_node_unique(const model *m, const char *host)
{
	return suggest_node(m, host, true);
}

static const char *suggest_pool(const model *m, const char *name, bool unique)
{
	const char *names[256];
	size_t n = 0;
	for (size_t i = 0; i < m->npools && n < 256; i++)
		names[n++] = m->pools[i]->name;
	return (unique ? kw_suggest_unique : kw_suggest)(name, names, n);
}

const char *model_suggest_pool(const model *m, const char *name)
{
	return suggest_pool(m, name, false);
}

void model_unknown_pool(model *m, const char *name, src_loc loc)
{
	const char *sug = model_suggest_pool(m, name);
	diag *d = diag_report(m->dc, R_UNKNOWN_NAME, loc, "no pool named '%s'", name);
	if (sug) {
		diag_help(m->dc, d, "did you mean '%s'?", sug);
		diag_fix_name(m->dc, d, loc, name, suggest_pool(m, name, true));
	}
	else
		diag_help(m->dc, d, "define it: `pool %s { size 90%% }`", name);
}

hardware *model_hardware(const model *m, const char *name)
{
	hardware *hw = strmap_get(&m->name_index, name);
	for (size_t i = 0; hw && i < m->nhws; i++)
		if (m->hws[i] == hw)
			return hw; /* the index holds profiles too */
	return NULL;
}

profile_def *profile_find(const model *m, const char *name)
{
	void *p = strmap_get(&m->name_index, name);
	return p && !model_hardware(m, name) ? p : NULL;
}
