/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "oclass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"

/* Registered group counts (src/object/obj_class_def.c): EC has no G6 name. */
static const int s_shards[] = {1, 2, 4, 6, 8, 12, 16, 32};
static const int rp_groups[] = {1, 2, 4, 6, 8, 12, 16, 32};
static const int ec_groups[] = {1, 2, 4, 8, 12, 16, 32};
static const struct { int k, p; bool from_263; } ec_pairs[] = {
	{16, 3, true}, {16, 2, false}, {16, 1, false}, {8, 3, true}, {8, 2, false}, {8, 1, false},
	{4, 3, true}, {4, 2, false}, {4, 1, false}, {2, 2, false}, {2, 1, false},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static bool in(const int *set, size_t n, int v)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == v)
			return true;
	return false;
}

bool oclass_ec_allowed(int k, int p, int release, int patch)
{
	for (size_t i = 0; i < COUNT(ec_pairs); i++)
		if (ec_pairs[i].k == k && ec_pairs[i].p == p)
			return !ec_pairs[i].from_263 || release > 26 || patch >= 3;
	return false;
}

void oclass_name(oclass_kind kind, int k, int p, int groups, char out[24])
{
	char g[8];
	if (groups)
		snprintf(g, sizeof(g), "%d", groups);
	else
		strcpy(g, "X");
	if (kind == OC_S)
		snprintf(out, 24, "S%s", groups ? g : "X");
	else if (kind == OC_RP)
		snprintf(out, 24, "RP_%dG%s", k, g);
	else
		snprintf(out, 24, "EC_%dP%dG%s", k, p, g);
}

/* Reads digits; returns -1 when there are none. */
static int number(const char **s)
{
	if (**s < '0' || **s > '9')
		return -1;
	int v = 0;
	while (**s >= '0' && **s <= '9' && v < 1000)
		v = v * 10 + (*(*s)++ - '0');
	return v;
}

static bool group_part(const char **s, int *groups)
{
	if (**s != 'G')
		return false;
	(*s)++;
	if (**s == 'X') {
		(*s)++;
		*groups = 0;
		return true;
	}
	*groups = number(s);
	return *groups > 0;
}

static bool parse_shape(const char *name, oclass *c)
{
	const char *s = name;
	memset(c, 0, sizeof(*c));
	if (strcmp(name, "RP_XSF") == 0) {
		c->kind = OC_RP;
		c->xsf = true;
		c->k = 3; /* RP_XSF replicates 3-way across many groups */
		return true;
	}
	if (s[0] == 'S') {
		s++;
		c->kind = OC_S;
		c->p = 0;
		if (*s == 'X') {
			s++;
			c->groups = 0;
		} else {
			c->groups = number(&s);
			if (c->groups <= 0)
				return false;
		}
		c->k = 1;
		return *s == '\0';
	}
	if (strncmp(s, "RP_", 3) == 0) {
		s += 3;
		c->kind = OC_RP;
		c->k = number(&s);
		return c->k > 0 && group_part(&s, &c->groups) && *s == '\0';
	}
	if (strncmp(s, "EC_", 3) == 0) {
		s += 3;
		c->kind = OC_EC;
		c->k = number(&s);
		if (c->k <= 0 || *s++ != 'P')
			return false;
		c->p = number(&s);
		return c->p > 0 && group_part(&s, &c->groups) && *s == '\0';
	}
	return false;
}

static const char *closest(const char *name, int release, int patch)
{
	static char best[24];
	size_t bd = 99;
	char cand[24];
	for (size_t i = 0; i < COUNT(ec_pairs); i++) {
		if (!oclass_ec_allowed(ec_pairs[i].k, ec_pairs[i].p, release, patch))
			continue;
		for (size_t g = 0; g <= COUNT(ec_groups); g++) {
			oclass_name(OC_EC, ec_pairs[i].k, ec_pairs[i].p, g < COUNT(ec_groups) ? ec_groups[g] : 0, cand);
			size_t d = val_edit_distance(name, cand);
			if (d < bd) {
				bd = d;
				strcpy(best, cand);
			}
		}
	}
	for (int r = 2; r <= 6; r++)
		for (size_t g = 0; g <= COUNT(rp_groups); g++) {
			oclass_name(OC_RP, r, 0, g < COUNT(rp_groups) ? rp_groups[g] : 0, cand);
			size_t d = val_edit_distance(name, cand);
			if (d < bd) {
				bd = d;
				strcpy(best, cand);
			}
		}
	return bd <= 3 ? best : NULL;
}

bool oclass_parse(const char *name, int release, int patch, oclass *out, const char **why, const char **suggest)
{
	*suggest = NULL;
	if (strlen(name) >= sizeof(out->name) || !parse_shape(name, out)) {
		*why = "not an object class name (S<n>, SX, RP_<r>G<g>, RP_XSF, EC_<k>P<p>G<g>)";
		*suggest = closest(name, release, patch);
		return false;
	}
	strcpy(out->name, name);
	if (out->xsf)
		return true;
	switch (out->kind) {
	case OC_S:
		if (out->groups && !in(s_shards, COUNT(s_shards), out->groups)) {
			*why = "S classes have 1, 2, 4, 6, 8, 12, 16, 32 or X shards";
			return false;
		}
		return true;
	case OC_RP:
		if (out->k < 2 || out->k > 6) {
			*why = "replicated classes keep 2 to 6 replicas";
			*suggest = closest(name, release, patch);
			return false;
		}
		if (out->groups && !in(rp_groups, COUNT(rp_groups), out->groups)) {
			*why = "RP classes have 1, 2, 4, 6, 8, 12, 16, 32 or X groups";
			*suggest = closest(name, release, patch);
			return false;
		}
		return true;
	case OC_EC:
		if (out->groups && !in(ec_groups, COUNT(ec_groups), out->groups)) {
			static char around[64];
			if (out->groups == 6) {
				char lo[24], hi[24];
				oclass_name(OC_EC, out->k, out->p, 4, lo);
				oclass_name(OC_EC, out->k, out->p, 8, hi);
				snprintf(around, sizeof(around), "%s or %s", lo, hi);
				*why = "EC classes have no G6 name (only the ID exists; DAOS rejects the name)";
				*suggest = around;
			} else {
				*why = "EC classes have 1, 2, 4, 8, 12, 16, 32 or X groups";
				*suggest = closest(name, release, patch);
			}
			return false;
		}
		for (size_t i = 0; i < COUNT(ec_pairs); i++)
			if (ec_pairs[i].k == out->k && ec_pairs[i].p == out->p) {
				if (!oclass_ec_allowed(out->k, out->p, release, patch)) {
					*why = "EC classes with 3 parity cells exist from DAOS 2.6.3 (write `daos 2.6.3` if the cluster runs it)";
					return false;
				}
				return true;
			}
		*why = "EC geometries are 2P1, 2P2, 4P1, 4P2, 4P3, 8P1, 8P2, 8P3, 16P1, 16P2 and 16P3";
		*suggest = closest(name, release, patch);
		return false;
	}
	return false;
}

int oclass_tolerance(const oclass *c)
{
	return c->kind == OC_S ? 0 : c->kind == OC_RP ? c->k - 1 : c->p;
}

int oclass_width(const oclass *c)
{
	return c->kind == OC_S ? 1 : c->kind == OC_RP ? c->k : c->k + c->p;
}
