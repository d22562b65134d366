/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* plan_print.c - see plan_print.h. */
#include "plan_print.h"

#include <jansson.h>
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/value.h"
#include "compiler/tree/disruption.h"
#include "rollout.h"

/* The exact keys of a change, when the group folded indexes. */
static const char *keys_of(planner *pl, const change_group *g, const value_pair *p)
{
	if (p->nkeys == 1 && strcmp(p->keys[0], g->key) == 0)
		return NULL;
	buf b;
	buf_init(&b);
	for (size_t i = 0; i < p->nkeys && i < 8; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", p->keys[i]);
	if (p->nkeys > 8)
		buf_printf(&b, ", and %zu more", p->nkeys - 8);
	const char *s = arena_strndup(pl->ar, b.data, b.len);
	buf_free(&b);
	return s;
}

static const char *hosts_of(planner *pl, const value_pair *p)
{
	return hostlist_compress(pl->ar, p->hosts, p->nhosts);
}

static const char *shown(const char *v)
{
	return v ? v : "(absent)";
}

/* Whether some group has class c: each present class is one step. */
static bool has_class(const planner *pl, int c)
{
	for (size_t i = 0; i < pl->ngroups; i++)
		if ((int)pl->groups[i]->cls == c)
			return true;
	return false;
}

static bool is_cluster(const change_group *g)
{
	return strncmp(g->file, "cluster/", 8) == 0;
}

static size_t shown_values(const planner *pl, const change_group *g)
{
	return pl->max_values && g->npairs > pl->max_values ? pl->max_values : g->npairs;
}

static const char *what(const change_group *g)
{
	return strcmp(g->file, "(node)") == 0 ? "" : *g->key ? g->key : "(the file)";
}

static const char *where(const change_group *g)
{
	return strcmp(g->file, "(node)") == 0 ? "" : g->file;
}

/* "(14 nodes)", or "(cluster)" for cluster files. */
static const char *count_of(arena *a, const change_group *g)
{
	if (is_cluster(g))
		return "(cluster)";
	return arena_printf(a, "(%zu node%s)", g->nhosts, g->nhosts == 1 ? "" : "s");
}

void plan_print_text(planner *pl, FILE *out, int top)
{
	bool c = pl->colour;
	fprintf(out, "dslc plan: %zu added, %zu removed, %zu changed, %zu unchanged node%s; highest disruption: %s%s%s\n",
		pl->added, pl->removed, pl->changed, pl->unchanged, pl->unchanged == 1 ? "" : "s",
		c && top >= 0 && disruption_classes[top].error ? "\033[1;31m" : "", top >= 0 ? disruption_classes[top].id : "none",
		c && top >= 0 && disruption_classes[top].error ? "\033[0m" : "");
	for (size_t i = 0; i < pl->ngroups; i++) {
		const change_group *g = pl->groups[i];
		const disruption_class_info *ci = &disruption_classes[g->cls];
		fprintf(out, "\n%s%s%s  %s%s%s%s%s\n", c && ci->error ? "\033[1;31m" : c ? "\033[1m" : "", ci->id, c ? "\033[0m" : "",
			where(g), *where(g) && *what(g) ? " " : "", what(g), *where(g) || *what(g) ? "  " : "", count_of(pl->ar, g));
		bool cluster = is_cluster(g);
		size_t n = shown_values(pl, g);
		for (size_t k = 0; k < n; k++) {
			const value_pair *p = &g->pairs[k];
			const char *keys = keys_of(pl, g, p);
			if (p->old || p->new)
				fprintf(out, "    %s%s%s -> %s\n", keys ? keys : "", keys ? ": " : "", shown(p->old), shown(p->new));
			if (!cluster)
				fprintf(out, "%s%s%son %s\n", p->old || p->new ? "      " : "    ", keys && !(p->old || p->new) ? keys : "",
					keys && !(p->old || p->new) ? " " : "", hosts_of(pl, p));
		}
		if (n < g->npairs)
			fprintf(out, "    ... and %zu more distinct values\n", g->npairs - n);
	}
	if (top < 0)
		return;
	fprintf(out, "\nWhat to do, in order:\n");
	int step = 1;
	for (int r = DC__COUNT - 1; r > DC_NONE; r--) /* none: nothing to do */
		if (has_class(pl, r))
			fprintf(out, "  %d. %s: %s\n", step++, disruption_classes[r].id, disruption_classes[r].steps);
}

/* Markdown that stays readable as a PR comment at any node count: one
 * table, then one collapsible section per group, values capped. */
static void md_text(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (strchr("|<>`*_\\[]", *s))
			fputc('\\', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
}

/* A code span: a backquote inside becomes a quote; in a table cell a
 * newline or '|' would end the row and becomes a space. */
static void md_code(FILE *out, const char *s, bool cell)
{
	fputc('`', out);
	for (; *s; s++)
		fputc(*s == '`' ? '\'' : cell && (*s == '\n' || *s == '|') ? ' ' : *s, out);
	fputc('`', out);
}

void plan_print_markdown(planner *pl, FILE *out, int top)
{
	fprintf(out, "### dslc plan: %zu of %zu nodes changed, highest disruption: **%s**\n\n",
		pl->changed + pl->added + pl->removed, pl->changed + pl->added + pl->removed + pl->unchanged,
		top >= 0 ? disruption_classes[top].id : "none");
	fprintf(out, "%zu added, %zu removed, %zu changed, %zu unchanged.%s\n\n", pl->added, pl->removed, pl->changed,
		pl->unchanged, top >= 0 && disruption_classes[top].error ? " :warning: **This change needs an extra approval.**" : "");
	if (!pl->ngroups)
		return;
	fprintf(out, "| class | file | key | nodes |\n|---|---|---|---|\n");
	for (size_t i = 0; i < pl->ngroups; i++) {
		const change_group *g = pl->groups[i];
		fprintf(out, "| `%s` | ", disruption_classes[g->cls].id);
		if (*where(g))
			md_code(out, where(g), true);
		fputs(" | ", out);
		if (*what(g))
			md_code(out, what(g), true);
		fprintf(out, " | %s |\n", is_cluster(g) ? "cluster" : arena_printf(pl->ar, "%zu", g->nhosts));
	}
	fputc('\n', out);
	for (size_t i = 0; i < pl->ngroups; i++) {
		const change_group *g = pl->groups[i];
		fprintf(out, "<details><summary>%s: ", disruption_classes[g->cls].id);
		md_text(out, where(g));
		fputc(' ', out);
		md_text(out, what(g));
		fprintf(out, " %s</summary>\n\n", count_of(pl->ar, g));
		size_t n = shown_values(pl, g);
		for (size_t k = 0; k < n; k++) {
			const value_pair *p = &g->pairs[k];
			const char *keys = keys_of(pl, g, p);
			fputs("- ", out);
			if (keys) {
				md_text(out, keys);
				fputs(": ", out);
			}
			if (p->old || p->new) {
				md_code(out, shown(p->old), false);
				fputs(" -> ", out);
				md_code(out, shown(p->new), false);
				fputs(is_cluster(g) ? "" : " on ", out);
			} else {
				fputs("on ", out);
			}
			if (!is_cluster(g) || !(p->old || p->new))
				md_text(out, is_cluster(g) ? "the cluster" : hosts_of(pl, p));
			fputc('\n', out);
		}
		if (n < g->npairs)
			fprintf(out, "- ... and %zu more distinct values\n", g->npairs - n);
		fputs("\n</details>\n\n", out);
	}
	fputs("#### What to do, in order\n\n", out);
	int step = 1;
	for (int r = DC__COUNT - 1; r > DC_NONE; r--) /* none: nothing to do */
		if (has_class(pl, r))
			fprintf(out, "%d. **%s**: %s\n", step++, disruption_classes[r].id, disruption_classes[r].steps);
}

void plan_print_json(planner *pl, FILE *out, int top, const char *version, const plan_waves *waves)
{
	json_t *groups = json_array();
	for (size_t i = 0; i < pl->ngroups; i++) {
		const change_group *g = pl->groups[i];
		json_t *changes = json_array();
		size_t n = shown_values(pl, g);
		for (size_t k = 0; k < n; k++) {
			const value_pair *p = &g->pairs[k];
			json_t *keys = json_array();
			for (size_t j = 0; j < p->nkeys; j++)
				json_array_append_new(keys, json_string(p->keys[j]));
			json_array_append_new(changes, json_pack("{s:o, s:s?, s:s?, s:s, s:I}", "keys", keys, "old", p->old, "new", p->new,
								 "hosts", hosts_of(pl, p), "count", (json_int_t)p->nhosts));
		}
		json_array_append_new(groups, json_pack("{s:s, s:s, s:s, s:b, s:I, s:I, s:o}", "class", disruption_classes[g->cls].id,
							"file", g->file, "key", g->key, "error", disruption_classes[g->cls].error,
							"nodes", (json_int_t)g->nhosts, "distinct_values", (json_int_t)g->npairs,
							"changes", changes));
	}
	json_t *steps = json_array();
	for (int r = DC__COUNT - 1; r > DC_NONE; r--) /* none: nothing to do */
		if (has_class(pl, r))
			json_array_append_new(steps, json_pack("{s:s, s:s}", "class", disruption_classes[r].id, "what",
							       disruption_classes[r].steps));
	json_t *root = json_pack("{s:s, s:i, s:s, s:{s:I, s:I, s:I, s:I, s:s?}, s:o, s:o, s:o}", "format", "dslc-plan",
				 "format_version", 1, "generator", version, "summary", "added", (json_int_t)pl->added, "removed",
				 (json_int_t)pl->removed, "changed", (json_int_t)pl->changed, "unchanged", (json_int_t)pl->unchanged,
				 "highest", top >= 0 ? disruption_classes[top].id : NULL, "groups", groups, "steps", steps,
				 "rollout", rollout_json(pl->ar, waves));
	json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
}

