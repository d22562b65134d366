/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "report_span.h"

#include <string.h>

#include "compiler/base/safe.h"
#include "compiler/base/sha256.h"

const char *report_path(arena *a, const char *path)
{
	/* split into segments, fold "." and "x/..", join again */
	char *copy = arena_strdup(a, path);
	const char *segs[256];
	int n = 0;
	bool absolute = path[0] == '/';
	for (char *tok = strtok(copy, "/"); tok; tok = strtok(NULL, "/")) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0 && n > 0 && strcmp(segs[n - 1], "..") != 0) {
			n--;
			continue;
		}
		if (n < 256)
			segs[n++] = tok;
	}
	size_t len = 2;
	for (int i = 0; i < n; i++)
		len += strlen(segs[i]) + 1;
	char *r = arena_alloc(a, len);
	char *p = r;
	if (absolute)
		*p++ = '/';
	for (int i = 0; i < n; i++) {
		size_t l = strlen(segs[i]);
		memcpy(p, segs[i], l);
		p += l;
		if (i + 1 < n)
			*p++ = '/';
	}
	*p = '\0';
	return r;
}

span report_span_exact(diag_ctx *dc, src_loc loc)
{
	span s = {0};
	const src_file *f = src_get(dc->src, loc.file);
	if (!f)
		return s;
	s.file = safe_utf8_repair(dc->ar, report_path(dc->ar, f->path)); /* a file name need not be UTF-8 */
	src_pos a = src_position(dc->src, loc.file, loc.start);
	src_pos b = src_position(dc->src, loc.file, loc.end);
	s.line = a.line;
	s.col = a.col;
	s.end_line = b.line;
	s.end_col = b.col;
	return s;
}

span report_span_of(diag_ctx *dc, src_loc loc)
{
	if (loc.end <= loc.start)
		loc.end = loc.start + 1;
	span s = report_span_exact(dc, loc);
	if (s.end_line == s.line && s.end_col <= s.col)
		s.end_col = s.col + 1;
	return s;
}

const char *report_u8(diag_ctx *dc, const char *s)
{
	return s ? safe_utf8_repair(dc->ar, s) : NULL;
}

void report_ids_init(report_ids *ids)
{
	ids->seen = json_object();
}

void report_ids_free(report_ids *ids)
{
	json_decref(ids->seen);
	ids->seen = NULL;
}

/* The hash of what names the finding, whatever line it is on. */
static void finding_hash(diag_ctx *dc, const diag *d, char hex[65])
{
	size_t len = 0;
	const char *line = "";
	if (src_get(dc->src, d->loc.file)) {
		src_pos p = src_position(dc->src, d->loc.file, d->loc.start);
		line = src_line_text(dc->src, d->loc.file, p.line, &len);
	}
	char *key = arena_printf(dc->ar, "%s\n%s\n%.*s", d->rule->id, d->msg, (int)len, line);
	sha256_hex(key, strlen(key), hex);
}

const char *report_fingerprint(report_ids *ids, diag_ctx *dc, const diag *d)
{
	char hex[65];
	finding_hash(dc, d, hex);
	span s = report_span_of(dc, d->loc);
	/* json keys are UTF-8: the file name is (report_span_exact) */
	const char *key = arena_printf(dc->ar, "%s\n%.32s", s.file ? s.file : "", hex);
	json_int_t k = json_integer_value(json_object_get(ids->seen, key)) + 1;
	json_object_set_new(ids->seen, key, json_integer(k));
	return arena_printf(dc->ar, "%.32s:%lld", hex, (long long)k);
}

const char *report_fingerprint_global(report_ids *ids, diag_ctx *dc, const diag *d)
{
	const char *fp = report_fingerprint(ids, dc, d);
	span s = report_span_of(dc, d->loc);
	const char *key = arena_printf(dc->ar, "%s\n%s", s.file ? s.file : "", fp);
	char hex[65];
	sha256_hex(key, strlen(key), hex);
	return arena_printf(dc->ar, "%.32s", hex);
}
