/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* yaml_keys.c - every key of a mapping against the release's table
 * (compiler/model/daos_keys): unknown keys, keys of another release, and
 * values of the wrong type, as DAOS's strict loading refuses them. */
#include <stdio.h>
#include <string.h>

#include "compiler/base/value.h"
#include "lint.h"
#include "yaml_rules.h"

static const char *type_name(daos_key_type t)
{
	switch (t) {
	case KT_STR: return "a string";
	case KT_INT: return "an integer";
	case KT_BOOL: return "true or false";
	case KT_LIST: return "a list";
	case KT_MAP: return "a mapping";
	case KT_LIST_MAP: return "a list of mappings";
	}
	return "a value";
}

static bool type_ok(const ynode *v, daos_key_type t)
{
	switch (t) {
	case KT_STR: return v->kind == Y_SCALAR;
	case KT_INT: return yl_scalar_int(v, NULL);
	case KT_BOOL: return yl_scalar_bool(v);
	case KT_LIST:
		if (yl_is_null(v))
			return true;
		if (v->kind != Y_SEQ)
			return false;
		for (size_t i = 0; i < v->n; i++)
			if (v->items[i]->kind != Y_SCALAR)
				return false;
		return true;
	case KT_MAP: return v->kind == Y_MAP;
	case KT_LIST_MAP:
		if (yl_is_null(v))
			return true; /* `engines:` with no value: discovery mode */
		if (v->kind != Y_SEQ)
			return false;
		for (size_t i = 0; i < v->n; i++)
			if (v->items[i]->kind != Y_MAP)
				return false;
		return true;
	}
	return false;
}

/* Checks every key of a mapping against the release's table for section. */
void yl_check_keys(ylint *y, const ynode *map, const char *section)
{
	if (!map || map->kind != Y_MAP)
		return;
	int rel = y->rel->id;
	for (size_t i = 0; i < map->n; i++) {
		const ynode *k = map->pairs[i].key, *v = map->pairs[i].value;
		if (k->kind != Y_SCALAR)
			continue;
		const daos_key_info *found = NULL, *other = NULL;
		const daos_key_info *ki = strmap_get(&y->keys, arena_printf(y->a, "%s\x1f%s", section, k->text));
		if (ki && ki->name[rel] && strcmp(ki->name[rel], k->text) == 0)
			found = ki;
		else if (ki)
			other = ki;
		if (!found) {
			diag *d = diag_report(y->dc, R_YAML_UNKNOWN_KEY, k->loc, "DAOS %s has no key '%s' here", y->rel->name, k->text);
			if (d == &y->dc->sink) {
				continue; /* a repeat, or past the findings cap: no help to compute */
			} else if (other) {
				for (int r = 0; r < DAOS__NRELEASES; r++)
					if (other->name[r] && strcmp(other->name[r], k->text) == 0)
						diag_note_at(y->dc, d, SRC_LOC_NONE, "'%s' is a DAOS %s key", k->text, daos_releases[r].name);
				if (other->name[rel])
					diag_help(y->dc, d, "DAOS %s calls it '%s'", y->rel->name, other->name[rel]);
				else
					diag_help(y->dc, d, "remove it, or lint with --release for the release the file is for");
			} else {
				const char *names[128];
				size_t nn = 0;
				for (int j = 0; j < DAOS__NKEYS; j++)
					if (strcmp(daos_keys[j].section, section) == 0 && daos_keys[j].name[rel] && nn < 128)
						names[nn++] = daos_keys[j].name[rel];
				const char *best = NULL;
				size_t bd = 4;
				for (size_t j = 0; j < nn; j++) {
					size_t dd = val_edit_distance_within(k->text, names[j], bd);
					if (dd < bd) {
						bd = dd;
						best = names[j];
					}
				}
				if (best) {
					diag_help(y->dc, d, "did you mean '%s'?", best);
					diag_fix_edit(y->dc, d, k->loc, "%s", best);
				}
				else
					diag_help(y->dc, d, "remove it: strict loading stops daos_server at unknown keys");
			}
			continue;
		}
		if (!type_ok(v, found->type)) {
			diag *d = diag_report(y->dc, R_YAML_TYPE, v->loc, "%s expects %s", k->text, type_name(found->type));
			diag_help(y->dc, d, "%s", found->type == KT_INT ? "write a plain integer below 2^31 (sizes are whole GiB, without units)"
						  : "write the value in that YAML type");
		}
	}
}
