/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* yaml_read.c - reading a daos_server.yml or daos_agent.yml value as DAOS
 * reads it (yaml.v2 into Go types): integers, booleans, null, and the
 * fabric keys an engine inherits. Every file of the linter, and the
 * importer, reads through these (yaml_rules.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "yaml_rules.h"

bool yl_scalar_int(const ynode *v, int64_t *out)
{
	if (!v || v->kind != Y_SCALAR || v->quoted)
		return false;
	char *end;
	errno = 0;
	long long x = strtoll(v->text, &end, 0);
	if (*v->text && *end == '.' && !errno) {
		/* yaml.v2 decodes 16.0 (and 16.5, truncated) into an int field */
		char *fend;
		double f = strtod(v->text, &fend);
		if (*fend || f != f || f > YAML_INT_MAX || f < -YAML_INT_MAX)
			return false;
		x = (long long)f;
		end = fend;
	}
	/* Every integer DAOS reads fits in 2^31 (ports, cores, GiB, pages); the
	 * bound keeps the sums and products below far from overflow. */
	if (!*v->text || *end || errno || x > YAML_INT_MAX || x < -YAML_INT_MAX)
		return false;
	if (out)
		*out = x;
	return true;
}

bool yl_scalar_bool(const ynode *v)
{
	static const char *const words[] = {"true", "false", "yes", "no", "on", "off", "y", "n"};
	if (!v || v->kind != Y_SCALAR || v->quoted)
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasecmp(v->text, words[i]) == 0)
			return true;
	return false;
}

bool yl_is_true(const ynode *v)
{
	return strcasecmp(v->text, "true") == 0 || strcasecmp(v->text, "yes") == 0 || strcasecmp(v->text, "on") == 0 ||
	       strcasecmp(v->text, "y") == 0;
}

/* A plain ~, null or empty scalar: YAML's null, which leaves the key unset. */
bool yl_is_null(const ynode *v)
{
	return v->kind == Y_SCALAR && !v->quoted &&
	       (!*v->text || strcmp(v->text, "~") == 0 || strcmp(v->text, "null") == 0 || strcmp(v->text, "Null") == 0 ||
		strcmp(v->text, "NULL") == 0);
}


bool yl_get_int(const ynode *map, const char *key, int64_t *out, src_loc *loc)
{
	const ypair *p = ydoc_pair(map, key);
	if (!p || !yl_scalar_int(p->value, out))
		return false;
	if (loc)
		*loc = p->value->loc;
	return true;
}

const char *yl_get_str(const ynode *map, const char *key)
{
	const ynode *v = ydoc_get(map, key);
	return v && v->kind == Y_SCALAR && !yl_is_null(v) ? v->text : NULL;
}

/* An engine's fabric_iface or fabric_iface_port as DAOS takes it: the
 * engine's own pair, else, when that is absent, null, empty or (the port)
 * 0, the top level's (FabricConfig.Update, src/control/server/engine/
 * config.go); the engine's own unset one where the top level has none. */
const ypair *yl_fabric_pair(const ynode *root, const ynode *engine, const char *key)
{
	const ypair *p = ydoc_pair(engine, key);
	int64_t port;
	bool unset = !p || yl_is_null(p->value) ||
		     (p->value->kind == Y_SCALAR &&
		      (strcmp(key, "fabric_iface") == 0 ? !*p->value->text : yl_scalar_int(p->value, &port) && port == 0));
	const ypair *top = unset ? ydoc_pair(root, key) : NULL;
	return top ? top : p;
}

src_loc yl_key_loc(const ynode *map, const char *key)
{
	const ypair *p = ydoc_pair(map, key);
	return p ? src_loc_join(p->key->loc, p->value->loc) : map->loc;
}
