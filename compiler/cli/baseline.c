/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "baseline.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/file.h"
#include "compiler/base/safe.h"
#include "report_span.h"

enum { BASELINE_MAX_BYTES = 64 * 1024 * 1024 };
#define BASELINE_FORMAT "dslc-baseline"

/* The directory a baseline at path is in, resolved (the file need not exist). */
static const char *resolved_dir(arena *a, const char *path)
{
	char *copy = arena_strdup(a, path);
	char real[PATH_MAX];
	const char *d = dirname(copy);
	return arena_strdup(a, realpath(d, real) ? real : d);
}

/* A finding's file as the baseline names it: relative to its directory
 * when both resolve and it is below it, else as the report writes it. */
static const char *baseline_file(arena *a, const char *dir, diag_ctx *dc, src_loc loc)
{
	const src_file *f = src_get(dc->src, loc.file);
	if (!f)
		return "";
	char real[PATH_MAX];
	size_t n = strlen(dir);
	if (realpath(f->path, real) && strncmp(real, dir, n) == 0 && (real[n] == '/' || (n == 1 && dir[0] == '/')))
		return safe_utf8_repair(a, arena_strdup(a, real + n + (n > 1)));
	return safe_utf8_repair(a, report_path(a, f->path));
}

static bool recordable(const diag *d)
{
	return rule_silenceable(d->rule);
}

static const char *entry_key(arena *a, const char *rule, const char *file, const char *fp)
{
	return arena_printf(a, "%s\n%s\n%s", rule, file, fp);
}

static bool refuse(const char *path, const char *why, unsigned line, unsigned col)
{
	if (line)
		fprintf(stderr, "dslc: %s:%u:%u: not a dslc baseline: %s\n", path, line, col, why);
	else
		fprintf(stderr, "dslc: cannot read the baseline '%s': %s\n", path, why);
	fprintf(stderr, "help: write it again with `dslc lint --write-baseline %s`\n", path);
	return false;
}

bool baseline_read(baseline *b, arena *a, const char *path)
{
	memset(b, 0, sizeof(*b));
	size_t len;
	char *text = src_read_file(a, path, BASELINE_MAX_BYTES, true, &len);
	if (!text)
		return refuse(path, errno == EFBIG ? "larger than 64 MiB" : src_strerror(errno), 0, 0);
	json_error_t err;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
	if (!root)
		return refuse(path, err.text, (unsigned)(err.line > 0 ? err.line : 1), (unsigned)(err.column > 0 ? err.column : 1));
	const char *format = json_string_value(json_object_get(root, "format"));
	json_t *items = json_object_get(root, "findings");
	if (!format || strcmp(format, BASELINE_FORMAT) != 0 || json_integer_value(json_object_get(root, "version")) != 1 ||
	    !json_is_array(items)) {
		json_decref(root);
		return refuse(path, "it needs \"format\": \"" BASELINE_FORMAT "\", \"version\": 1 and a \"findings\" array", 1, 1);
	}
	b->path = path;
	b->dir = resolved_dir(a, path);
	b->entries = json_object();
	size_t i;
	json_t *it;
	json_array_foreach(items, i, it) {
		const char *rule = json_string_value(json_object_get(it, "rule"));
		const char *file = json_string_value(json_object_get(it, "file"));
		const char *fp = json_string_value(json_object_get(it, "fingerprint"));
		if (!rule || !file || !fp) {
			json_decref(root);
			baseline_free(b);
			return refuse(path, arena_printf(a, "finding %zu needs the strings \"rule\", \"file\" and \"fingerprint\"", i + 1), 1, 1);
		}
		json_object_set(b->entries, entry_key(a, rule, file, fp), it);
	}
	b->nentries = json_object_size(b->entries);
	json_decref(root);
	return true;
}

/* Calls each(finding, its key) in report order, fingerprints counted as a
 * report counts them. */
static void each_key(arena *a, const char *dir, diag_ctx *const *dcs, size_t n,
		     void (*each)(void *ctx, diag_ctx *dc, size_t i, const char *key), void *ctx)
{
	report_ids ids;
	report_ids_init(&ids);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < dcs[k]->n; i++) {
			diag *d = dcs[k]->items[i];
			const char *fp = report_fingerprint(&ids, dcs[k], d);
			if (recordable(d))
				each(ctx, dcs[k], i, entry_key(a, d->rule->id, baseline_file(a, dir, dcs[k], d->loc), fp));
		}
	report_ids_free(&ids);
}

typedef struct apply_ctx {
	baseline *b;
	bool **known;
	diag_ctx *const *dcs;
	size_t n;
} apply_ctx;

static void apply_one(void *ctx, diag_ctx *dc, size_t i, const char *key)
{
	apply_ctx *c = ctx;
	if (!json_object_get(c->b->entries, key))
		return;
	json_object_del(c->b->entries, key); /* one entry, one finding */
	c->b->matched++;
	for (size_t k = 0; k < c->n; k++)
		if (c->dcs[k] == dc)
			c->known[k][i] = true;
}

void baseline_apply(baseline *b, arena *a, diag_ctx *const *dcs, size_t n)
{
	bool **known = arena_alloc(a, (n + 1) * sizeof(*known));
	for (size_t k = 0; k < n; k++)
		known[k] = arena_alloc(a, (dcs[k]->n + 1) * sizeof(**known));
	apply_ctx c = {b, known, dcs, n};
	each_key(a, b->dir, dcs, n, apply_one, &c);
	for (size_t k = 0; k < n; k++)
		diag_set_baselined(dcs[k], known[k]);
}

size_t baseline_stale(baseline *b, arena *a, diag_ctx *const *dcs, size_t n, FILE *out, size_t max)
{
	json_t *linted = json_object();
	for (size_t k = 0; k < n; k++)
		for (uint32_t f = 1; f <= dcs[k]->src->nfiles; f++)
			json_object_set_new(linted, baseline_file(a, b->dir, dcs[k], (src_loc){f, 0, 0}), json_true());
	size_t stale = 0;
	const char *key;
	json_t *e;
	json_object_foreach(b->entries, key, e) {
		const char *file = json_string_value(json_object_get(e, "file"));
		if (!json_object_get(linted, file))
			continue;
		if (stale++ < max) {
			const char *msg = json_string_value(json_object_get(e, "message"));
			fprintf(out, "dslc: %s: stale: %s[%s]", b->path, file, json_string_value(json_object_get(e, "rule")));
			if (msg) {
				fputs(": ", out);
				diag_print_escaped(out, msg);
			}
			fputc('\n', out);
		}
	}
	if (stale > max && max)
		fprintf(out, "dslc: %s: %zu more stale entries\n", b->path, stale - max);
	json_decref(linted);
	return stale;
}

void baseline_free(baseline *b)
{
	json_decref(b->entries);
	b->entries = NULL;
}

typedef struct write_ctx {
	json_t *byk;
} write_ctx;

static void write_one(void *ctx, diag_ctx *dc, size_t i, const char *key)
{
	write_ctx *w = ctx;
	diag *d = dc->items[i];
	const char *rule = d->rule->id;
	const char *file = strchr(key, '\n') + 1;
	const char *fp = strrchr(key, '\n') + 1;
	json_object_set_new(w->byk, key, json_pack("{s:s, s:s#, s:s, s:s}", "rule", rule, "file", file,
						   (int)(fp - 1 - file), "fingerprint", fp, "message", report_u8(dc, d->msg)));
}

static int entry_cmp(const void *pa, const void *pb)
{
	json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
	static const char *const fields[] = {"file", "rule", "fingerprint"};
	for (int i = 0; i < 3; i++) {
		int c = strcmp(json_string_value(json_object_get(a, fields[i])), json_string_value(json_object_get(b, fields[i])));
		if (c)
			return c;
	}
	return 0;
}

bool baseline_write(arena *a, const char *path, diag_ctx *const *dcs, size_t n, size_t *count)
{
	write_ctx w = {json_object()};
	each_key(a, resolved_dir(a, path), dcs, n, write_one, &w);
	/* by file, rule and fingerprint: a diff of the baseline reads as the findings that came and went */
	size_t m = json_object_size(w.byk), k = 0;
	json_t **sorted = arena_alloc(a, (m + 1) * sizeof(*sorted));
	const char *key;
	json_t *e;
	json_object_foreach(w.byk, key, e)
		sorted[k++] = e;
	qsort(sorted, m, sizeof(*sorted), entry_cmp);
	json_t *items = json_array();
	for (size_t i = 0; i < m; i++)
		json_array_append(items, sorted[i]);
	json_t *root = json_pack("{s:s, s:i, s:s, s:o}", "format", BASELINE_FORMAT, "version", 1, "generator",
				 "dslc " DSLC_VERSION, "findings", items);
	char *text = json_dumps(root, JSON_INDENT(2));
	json_decref(root);
	json_decref(w.byk);
	const char *why = NULL;
	char *whole = text ? arena_printf(a, "%s\n", text) : NULL;
	bool ok = whole && file_write_whole(a, path, whole, strlen(whole), "baseline", &why);
	if (!ok)
		fprintf(stderr, "dslc: cannot write the baseline '%s': %s\n", path, why ? why : "out of memory");
	free(text);
	*count = m;
	return ok;
}
