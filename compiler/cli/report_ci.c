/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "report_ci.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/buf.h"
#include "compiler/base/xml.h"
#include "report_span.h"

/* ---- GitLab Code Quality ---------------------------------------------------- */

/* GitLab ranks blocker, critical, major, minor, info
 * (lib/gitlab/ci/reports/codequality_reports.rb): an error outranks a warning. */
static const char *gitlab_severity(diag_severity s)
{
	return s == SEV_ERROR ? "major" : s == SEV_WARNING ? "minor" : "info";
}

int report_gitlab(diag_ctx *const *dcs, size_t n, FILE *out)
{
	json_t *issues = json_array();
	report_ids ids;
	report_ids_init(&ids);
	for (size_t k = 0; k < n; k++) {
		diag_ctx *dc = dcs[k];
		for (size_t i = 0; i < dc->n; i++) {
			diag *d = dc->items[i];
			span s = report_span_of(dc, d->loc);
			if (!s.file)
				continue; /* GitLab needs a path; every dslc finding has one */
			/* GitLab keeps one issue per fingerprint: unique in the report */
			const char *text = report_u8(dc, d->help ? arena_printf(dc->ar, "%s (%s)", d->msg, d->help) : d->msg);
			json_array_append_new(issues, json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:{s:I, s:I}, s:{s:{s:I, s:I}, s:{s:I, s:I}}}}",
				"type", "issue", "check_name", d->rule->id, "description", text, "fingerprint",
				report_fingerprint_global(&ids, dc, d), "severity", gitlab_severity(d->severity), "location", "path", s.file,
				"lines", "begin", (json_int_t)s.line, "end", (json_int_t)s.end_line, "positions", "begin", "line",
				(json_int_t)s.line, "column", (json_int_t)s.col, "end", "line", (json_int_t)s.end_line, "column",
				(json_int_t)s.end_col));
		}
	}
	report_ids_free(&ids);
	int rc = json_dumpf(issues, out, JSON_INDENT(2)) == 0 ? 0 : 2;
	fputc('\n', out);
	json_decref(issues);
	return rc || ferror(out) ? 2 : 0;
}

/* ---- what the XML formats group: findings by file, then by rule ------------ */

typedef struct entry {
	const char *file; /* UTF-8; "" when the finding has no place */
	diag_ctx *dc;
	diag *d;
	span s;
	size_t order;
} entry;

/* By file, then (JUnit's cases) by rule, then in report order: by place. */
static int entry_cmp(const void *pa, const void *pb, bool by_rule)
{
	const entry *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);
	if (!c && by_rule && a->d && b->d)
		c = strcmp(a->d->rule->id, b->d->rule->id);
	return c ? c : (a->order > b->order) - (a->order < b->order);
}

static int by_rule_cmp(const void *a, const void *b)
{
	return entry_cmp(a, b, true);
}

static int by_place_cmp(const void *a, const void *b)
{
	return entry_cmp(a, b, false);
}

/* Every finding, and every linted root without one as an entry of no
 * finding (d NULL): a clean file is a passing suite, not an absent one. */
static entry *entries(diag_ctx *const *dcs, size_t n, arena *a, bool by_rule, size_t *count)
{
	size_t total = 0;
	for (size_t k = 0; k < n; k++)
		total += dcs[k]->n + 1;
	entry *e = arena_alloc(a, (total + 1) * sizeof(*e));
	size_t m = 0;
	for (size_t k = 0; k < n; k++) {
		diag_ctx *dc = dcs[k];
		for (size_t i = 0; i < dc->n; i++) {
			span s = report_span_of(dc, dc->items[i]->loc);
			e[m] = (entry){s.file ? s.file : "", dc, dc->items[i], s, m};
			m++;
		}
		const src_file *root = src_get(dc->src, 1);
		if (root) {
			span s = report_span_exact(dc, (src_loc){1, 0, 0});
			bool seen = false;
			for (size_t j = 0; j < m && !seen; j++)
				seen = e[j].d && strcmp(e[j].file, s.file) == 0;
			if (!seen) {
				e[m] = (entry){s.file, dc, NULL, s, m};
				m++;
			}
		}
	}
	qsort(e, m, sizeof(*e), by_rule ? by_rule_cmp : by_place_cmp);
	/* a root seen clean by one compilation and with findings in another
	 * (a fragment linted through two descriptions) is not clean */
	size_t w = 0;
	for (size_t i = 0; i < m; i++) {
		bool other = false;
		for (size_t j = i; j-- > 0 && strcmp(e[j].file, e[i].file) == 0 && !other;)
			other = e[j].d != NULL;
		for (size_t j = i + 1; j < m && strcmp(e[j].file, e[i].file) == 0 && !other; j++)
			other = e[j].d != NULL;
		if (e[i].d || !other)
			e[w++] = e[i];
	}
	*count = w;
	return e;
}

static void xml_attr(buf *b, const char *name, const char *value)
{
	buf_printf(b, " %s=\"", name);
	xml_escape(b, value, 0);
	buf_add(b, "\"", 1);
}

static void xml_attr_u(buf *b, const char *name, unsigned long v)
{
	buf_printf(b, " %s=\"%lu\"", name, v);
}

static int write_buf(buf *b, FILE *out)
{
	size_t w = b->len ? fwrite(b->data, 1, b->len, out) : 0;
	int rc = w == b->len && !ferror(out) ? 0 : 2;
	buf_free(b);
	return rc;
}

/* "file:line:col: severity: message", then "help: ...": a finding as one
 * failure's text (escaped by the caller). */
static const char *finding_line(const entry *e)
{
	arena *a = e->dc->ar;
	const char *where = e->s.file ? arena_printf(a, "%s:%u:%u: ", e->s.file, e->s.line, e->s.col) : "";
	const char *t = arena_printf(a, "%s%s: %s", where, severity_name(e->d->severity), e->d->msg);
	return report_u8(e->dc, e->d->help ? arena_printf(a, "%s (help: %s)", t, e->d->help) : t);
}

/* ---- JUnit XML ---------------------------------------------------------------- */

/* The test case of one rule in one file: entries [i, j). */
static void junit_case(buf *b, const entry *e, size_t i, size_t j, diag_severity fail_on, bool failed)
{
	buf_puts(b, "    <testcase");
	xml_attr(b, "classname", e[i].file);
	xml_attr(b, "name", e[i].d->rule->id);
	xml_attr(b, "file", e[i].file);
	if (e[i].s.file)
		xml_attr_u(b, "line", e[i].s.line);
	buf_puts(b, ">\n");
	const char *tag = failed ? "failure" : "system-out";
	buf_printf(b, "      <%s", tag);
	if (failed) {
		size_t first = i;
		while (e[first].d->severity < fail_on)
			first++;
		xml_attr(b, "message", report_u8(e[first].dc, e[first].d->msg));
		xml_attr(b, "type", e[i].d->rule->id);
	}
	buf_puts(b, ">");
	for (size_t k = i; k < j; k++) {
		xml_escape(b, finding_line(&e[k]), 0);
		buf_add(b, "\n", 1);
	}
	buf_printf(b, "</%s>\n    </testcase>\n", tag);
}

int report_junit(diag_ctx *const *dcs, size_t n, FILE *out, diag_severity fail_on)
{
	arena a;
	arena_init(&a);
	size_t m;
	entry *e = entries(dcs, n, &a, true, &m);
	/* the totals go first: count the cases and failures */
	unsigned long tests = 0, failures = 0;
	for (size_t i = 0; i < m;) {
		size_t j = i + 1;
		while (j < m && strcmp(e[j].file, e[i].file) == 0 && e[j].d && e[i].d && e[j].d->rule == e[i].d->rule)
			j++;
		bool failed = false;
		for (size_t k = i; k < j && e[i].d; k++)
			failed |= e[k].d->severity >= fail_on;
		tests++;
		failures += failed;
		i = j;
	}
	buf b;
	buf_init(&b);
	buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"dslc lint\"");
	xml_attr_u(&b, "tests", tests);
	xml_attr_u(&b, "failures", failures);
	buf_puts(&b, " errors=\"0\">\n");
	for (size_t i = 0; i < m;) {
		size_t end = i; /* the file's entries */
		while (end < m && strcmp(e[end].file, e[i].file) == 0)
			end++;
		unsigned long t = 0, f = 0;
		buf cases;
		buf_init(&cases);
		for (size_t k = i; k < end;) {
			size_t j = k + 1;
			while (j < end && e[k].d && e[j].d && e[j].d->rule == e[k].d->rule)
				j++;
			bool failed = false;
			for (size_t q = k; q < j && e[k].d; q++)
				failed |= e[q].d->severity >= fail_on;
			if (e[k].d) {
				junit_case(&cases, e, k, j, fail_on, failed);
			} else { /* a clean file: one passing case */
				buf_puts(&cases, "    <testcase");
				xml_attr(&cases, "classname", e[k].file);
				xml_attr(&cases, "name", "no findings");
				xml_attr(&cases, "file", e[k].file);
				buf_puts(&cases, "/>\n");
			}
			t++;
			f += failed;
			k = j;
		}
		buf_puts(&b, "  <testsuite");
		xml_attr(&b, "name", *e[i].file ? e[i].file : "dslc");
		xml_attr_u(&b, "tests", t);
		xml_attr_u(&b, "failures", f);
		buf_puts(&b, " errors=\"0\" skipped=\"0\">\n");
		buf_add(&b, cases.data, cases.len);
		buf_free(&cases);
		buf_puts(&b, "  </testsuite>\n");
		i = end;
	}
	buf_puts(&b, "</testsuites>\n");
	arena_free(&a);
	return write_buf(&b, out);
}

/* ---- checkstyle XML ---------------------------------------------------------- */

/* checkstyle's severities (SeverityLevel): ignore, info, warning, error. */
static const char *checkstyle_severity(diag_severity s)
{
	return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "info";
}

int report_checkstyle(diag_ctx *const *dcs, size_t n, FILE *out, const char *version)
{
	arena a;
	arena_init(&a);
	size_t m;
	entry *e = entries(dcs, n, &a, false, &m);
	buf b;
	buf_init(&b);
	buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle");
	xml_attr(&b, "version", strchr(version, ' ') ? strchr(version, ' ') + 1 : version);
	buf_puts(&b, ">\n");
	/* by file and then by line, as checkstyle writes them */
	for (size_t i = 0; i < m;) {
		size_t end = i;
		while (end < m && strcmp(e[end].file, e[i].file) == 0)
			end++;
		buf_puts(&b, "  <file");
		xml_attr(&b, "name", e[i].file);
		buf_puts(&b, ">\n");
		for (size_t k = i; k < end; k++) {
			if (!e[k].d)
				continue; /* a clean file: <file> with no <error> */
			diag *d = e[k].d;
			buf_puts(&b, "    <error");
			xml_attr_u(&b, "line", e[k].s.file ? e[k].s.line : 0);
			if (e[k].s.file)
				xml_attr_u(&b, "column", e[k].s.col);
			xml_attr(&b, "severity", checkstyle_severity(d->severity));
			const char *msg = d->help ? arena_printf(&a, "%s (help: %s)", d->msg, d->help) : d->msg;
			xml_attr(&b, "message", report_u8(e[k].dc, msg));
			xml_attr(&b, "source", arena_printf(&a, "dslc.%s", d->rule->id));
			buf_puts(&b, "/>\n");
		}
		buf_puts(&b, "  </file>\n");
		i = end;
	}
	buf_puts(&b, "</checkstyle>\n");
	arena_free(&a);
	return write_buf(&b, out);
}

/* ---- one line per finding ---------------------------------------------------- */

int report_concise(diag_ctx *const *dcs, size_t n, FILE *out)
{
	for (size_t k = 0; k < n; k++) {
		diag_ctx *dc = dcs[k];
		for (size_t i = 0; i < dc->n; i++) {
			diag *d = dc->items[i];
			span s = report_span_of(dc, d->loc);
			/* the path and message as a terminal may show them: a newline or
			 * an escape in either stays \xNN, so a finding is one line */
			const src_file *f = src_get(dc->src, d->loc.file);
			const char *path = f ? report_path(dc->ar, f->path) : "dslc";
			diag_print_escaped(out, path);
			if (s.file)
				fprintf(out, ":%u:%u", s.line, s.col);
			fprintf(out, ": %s[%s]: ", severity_name(d->severity), d->rule->id);
			diag_print_escaped(out, d->msg);
			fputc('\n', out);
		}
	}
	return ferror(out) ? 2 : 0;
}
