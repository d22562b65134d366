/* SPDX-License-Identifier: BSD-2-Clause-Patent */
#include "report.h"

#include <jansson.h>
#include <string.h>

#include "report_ci.h"
#include "report_span.h"


bool report_format_parse(const char *s, report_format *out)
{
	static const struct { const char *name; report_format f; } names[] = {
		{"text", REPORT_TEXT}, {"json", REPORT_JSON}, {"sarif", REPORT_SARIF}, {"github", REPORT_GITHUB},
		{"gitlab", REPORT_GITLAB}, {"junit", REPORT_JUNIT}, {"checkstyle", REPORT_CHECKSTYLE}, {"concise", REPORT_CONCISE},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i].name, s) == 0) {
			*out = names[i].f;
			return true;
		}
	return false;
}

static json_t *json_region(span s)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "startLine", (json_int_t)s.line, "startColumn", (json_int_t)s.col,
			 "endLine", (json_int_t)s.end_line, "endColumn", (json_int_t)s.end_col);
}

static int dump(json_t *root, FILE *out)
{
	int rc = json_dumpf(root, out, JSON_INDENT(2)) == 0 ? 0 : 2;
	fputc('\n', out);
	json_decref(root);
	return rc;
}

/* ---- JSON ------------------------------------------------------------------ */

/* A baseline's verdict on a finding (SARIF 2.1.0 3.27.24 baselineState),
 * NULL when no baseline was applied. */
static const char *baseline_state(const diag_ctx *dc, bool known)
{
	return !dc->baseline_used ? NULL : known ? "unchanged" : "new";
}

static void json_findings(diag_ctx *dc, json_t *items)
{
	for (size_t i = 0; i < dc->n + dc->nbaselined; i++) {
		bool known = i >= dc->n;
		diag *d = known ? dc->baselined[i - dc->n] : dc->items[i];
		span s = report_span_of(dc, d->loc);
		json_t *o = json_object();
		json_object_set_new(o, "file", s.file ? json_string(s.file) : json_null());
		json_object_set_new(o, "line", s.file ? json_integer(s.line) : json_null());
		json_object_set_new(o, "column", s.file ? json_integer(s.col) : json_null());
		json_object_set_new(o, "endLine", s.file ? json_integer(s.end_line) : json_null());
		json_object_set_new(o, "endColumn", s.file ? json_integer(s.end_col) : json_null());
		json_object_set_new(o, "severity", json_string(severity_name(d->severity)));
		json_object_set_new(o, "ruleId", json_string(d->rule->id));
		char url[512];
		json_object_set_new(o, "url", json_string(rule_url(d->rule, url, sizeof(url))));
		json_object_set_new(o, "message", json_string(report_u8(dc, d->msg)));
		json_t *notes = json_array();
		for (diag_note *n = d->notes; n; n = n->next) {
			span ns = report_span_of(dc, n->loc);
			json_t *no = json_object();
			if (ns.file) {
				json_object_set_new(no, "file", json_string(ns.file));
				json_object_set_new(no, "line", json_integer(ns.line));
				json_object_set_new(no, "column", json_integer(ns.col));
			}
			json_object_set_new(no, "message", json_string(report_u8(dc, n->msg)));
			json_array_append_new(notes, no);
		}
		json_object_set_new(o, "notes", notes);
		json_object_set_new(o, "help", d->help ? json_string(report_u8(dc, d->help)) : json_null());
		json_t *fixes = json_array();
		for (diag_fix *f = d->fixes; f; f = f->next) {
			span fs = report_span_exact(dc, f->at);
			json_array_append_new(fixes, json_pack("{s:s, s:I, s:I, s:I, s:I, s:s}", "file", fs.file, "line", (json_int_t)fs.line,
							       "column", (json_int_t)fs.col, "endLine", (json_int_t)fs.end_line,
							       "endColumn", (json_int_t)fs.end_col, "replacement", report_u8(dc, f->text)));
		}
		json_object_set_new(o, "fixes", fixes);
		if (baseline_state(dc, known))
			json_object_set_new(o, "baseline", json_string(baseline_state(dc, known)));
		json_array_append_new(items, o);
	}
}

static int print_json(diag_ctx *const *dcs, size_t ndcs, FILE *out, const char *version, const char *settings)
{
	json_t *items = json_array();
	json_int_t count[4] = {0};
	for (size_t k = 0; k < ndcs; k++) {
		json_findings(dcs[k], items);
		count[0] += diag_count(dcs[k], SEV_ERROR);
		count[1] += diag_count(dcs[k], SEV_WARNING);
		count[2] += diag_count(dcs[k], SEV_NOTE);
		count[3] += dcs[k]->held;
	}
	json_t *root = json_pack("{s:i, s:s, s:o, s:{s:I, s:I, s:I, s:I}}", "version", 1, "tool", version, "findings", items,
				 "summary", "errors", count[0], "warnings", count[1], "notes", count[2], "held", count[3]);
	json_int_t known = 0;
	bool used = false;
	for (size_t k = 0; k < ndcs; k++) {
		known += (json_int_t)dcs[k]->nbaselined;
		used |= dcs[k]->baseline_used;
	}
	if (used) /* the counts above are the new findings' */
		json_object_set_new(json_object_get(root, "summary"), "baselined", json_integer(known));
	if (settings && ndcs)
		json_object_set_new(root, "settings", json_string(report_u8(dcs[0], settings)));
	return dump(root, out);
}

/* ---- SARIF 2.1.0 --------------------------------------------------------------- */

static const char *sarif_level(diag_severity s)
{
	return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" : "note";
}

static void sarif_results(report_ids *ids, diag_ctx *dc, json_t *results)
{
	for (size_t i = 0; i < dc->n + dc->nbaselined; i++) {
		bool known = i >= dc->n;
		diag *d = known ? dc->baselined[i - dc->n] : dc->items[i];
		span s = report_span_of(dc, d->loc);
		if (!s.file)
			continue; /* every dslc finding has a place; guard anyway */
		const char *text = report_u8(dc, d->help ? arena_printf(dc->ar, "%s (%s)", d->msg, d->help) : d->msg);
		json_t *res = json_pack("{s:s, s:i, s:s, s:{s:s}, s:[{s:{s:{s:s}, s:o}}], s:{s:s}}", "ruleId", d->rule->id,
					"ruleIndex", (int)d->rule->rule, "level", sarif_level(d->severity), "message", "text",
					text, "locations", "physicalLocation", "artifactLocation", "uri", s.file, "region",
					json_region(s), "partialFingerprints", "primaryLocationLineHash", report_fingerprint(ids, dc, d));
		json_t *related = json_array();
		int id = 1;
		for (diag_note *n = d->notes; n; n = n->next) {
			span ns = report_span_of(dc, n->loc);
			if (!ns.file)
				continue;
			json_array_append_new(related, json_pack("{s:i, s:{s:{s:s}, s:o}, s:{s:s}}", "id", id++,
				"physicalLocation", "artifactLocation", "uri", ns.file, "region", json_region(ns),
				"message", "text", report_u8(dc, n->msg)));
		}
		if (json_array_size(related))
			json_object_set_new(res, "relatedLocations", related);
		else
			json_decref(related);
		/* SARIF 2.1.0 section 3.55: one fix, its changes per file */
		if (d->fixes) {
			json_t *changes = json_array();
			for (diag_fix *f = d->fixes; f; f = f->next) {
				span fs = report_span_exact(dc, f->at);
				json_array_append_new(changes, json_pack("{s:{s:s}, s:[{s:o, s:{s:s}}]}", "artifactLocation", "uri", fs.file,
									 "replacements", "deletedRegion", json_region(fs),
									 "insertedContent", "text", report_u8(dc, f->text)));
			}
			json_object_set_new(res, "fixes", json_pack("[{s:{s:s}, s:o}]", "description", "text",
								    report_u8(dc, d->help ? d->help : d->msg), "artifactChanges", changes));
		}
		if (baseline_state(dc, known))
			json_object_set_new(res, "baselineState", json_string(baseline_state(dc, known)));
		json_array_append_new(results, res);
	}
}

static int print_sarif(diag_ctx *const *dcs, size_t ndcs, FILE *out, const char *version, const char *settings)
{
	json_t *rules = json_array();
	for (int i = 0; i < R__COUNT; i++) {
		const rule_info *r = &rule_table[i];
		char url[512];
		json_array_append_new(rules, json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:s, s:{s:s, s:s}, s:{s:s}, s:{s:[s]}}",
			"id", r->id, "name", r->id, "shortDescription", "text", r->summary, "fullDescription", "text",
			r->explanation, "helpUri", rule_url(r, url, sizeof(url)), "help", "text", r->fix, "markdown", r->fix,
			"defaultConfiguration", "level", sarif_level(r->severity), "properties", "tags", r->category));
	}
	json_t *results = json_array();
	report_ids ids;
	report_ids_init(&ids);
	for (size_t k = 0; k < ndcs; k++)
		sarif_results(&ids, dcs[k], results);
	report_ids_free(&ids);
	const char *semver = strchr(version, ' ') ? strchr(version, ' ') + 1 : version;
	/* informationUri and each rule's helpUri: the shipped SPEC.md (rule_docs_url) */
	json_int_t held = 0;
	for (size_t k = 0; k < ndcs; k++)
		held += dcs[k]->held;
	/* run.properties (SARIF 2.1.0 3.8): what waits for an error's fix */
	json_t *root = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o}}, s:s, s:o, s:{s:I}}]}",
		"$schema", "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs", "tool", "driver",
		"name", "dslc", "semanticVersion", semver, "informationUri", rule_docs_url(), "rules", rules,
		"columnKind", "unicodeCodePoints", "results", results, "properties", "held", held);
	if (settings && ndcs) /* which .dslc-lint decided what is shown */
		json_object_set_new(json_object_get(json_array_get(json_object_get(root, "runs"), 0), "properties"), "settings",
				    json_string(report_u8(dcs[0], settings)));
	return dump(root, out);
}

/* ---- GitHub workflow commands -------------------------------------------------- */

static void gh_escape(FILE *out, const char *s, bool property)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': fputs("%25", out); break;
		case '\r': fputs("%0D", out); break;
		case '\n': fputs("%0A", out); break;
		case ':': fputs(property ? "%3A" : ":", out); break;
		case ',': fputs(property ? "%2C" : ",", out); break;
		default: /* other control bytes, the ESC of a terminal sequence too, stay visible and inert */
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				fprintf(out, "%%%02X", (unsigned char)*s);
			else
				fputc(*s, out);
		}
	}
}

static void gh_annotations(diag_ctx *dc, int sev, FILE *out)
{
	for (size_t i = 0; i < dc->n; i++) {
		diag *d = dc->items[i];
		if ((int)d->severity != sev)
			continue;
		span s = report_span_of(dc, d->loc);
		fprintf(out, "::%s ", sev == SEV_ERROR ? "error" : sev == SEV_WARNING ? "warning" : "notice");
		if (s.file) {
			fputs("file=", out);
			gh_escape(out, s.file, true); /* s.file is UTF-8 (span_exact) */
			fprintf(out, ",line=%u,endLine=%u,col=%u,endColumn=%u,", s.line, s.end_line, s.col, s.end_col);
		}
		fputs("title=", out);
		gh_escape(out, arena_printf(dc->ar, "dslc %s", d->rule->id), true);
		fputs("::", out);
		char *msg = s.file ? arena_printf(dc->ar, "%s:%u:%u: %s [%s]", s.file, s.line, s.col, d->msg, d->rule->id)
				   : arena_printf(dc->ar, "%s [%s]", d->msg, d->rule->id);
		/* the notes as the text format gives them, a related place with its
		 * file:line:col: an annotation has one location, and the other
		 * place of a mistake must not be lost */
		for (const diag_note *n = d->notes; n; n = n->next) {
			span ns = report_span_of(dc, n->loc);
			msg = ns.file ? arena_printf(dc->ar, "%s\n%s:%u:%u: note: %s", msg, ns.file, ns.line, ns.col, n->msg)
				      : arena_printf(dc->ar, "%s\nnote: %s", msg, n->msg);
		}
		if (d->help)
			msg = arena_printf(dc->ar, "%s\nhelp: %s", msg, d->help);
		gh_escape(out, report_u8(dc, msg), false);
		fputc('\n', out);
	}
}

void report_counts(FILE *out, unsigned errors, unsigned warnings, unsigned notes, unsigned held)
{
	fprintf(out, "%u error%s, %u warning%s, %u note%s", errors, errors == 1 ? "" : "s", warnings,
		warnings == 1 ? "" : "s", notes, notes == 1 ? "" : "s");
	if (held)
		fprintf(out, "; %u more finding%s wait%s for the error%s to be fixed", held, held == 1 ? "" : "s",
			held == 1 ? "s" : "", errors == 1 ? "" : "s");
}

static int print_github(diag_ctx *const *dcs, size_t ndcs, FILE *out)
{
	fputs("::group::dslc\n", out);
	unsigned errors = 0, warnings = 0, notes = 0, held = 0;
	/* errors first: GitHub shows 10 of each kind per step */
	for (int sev = SEV_ERROR; sev >= SEV_NOTE; sev--)
		for (size_t k = 0; k < ndcs; k++)
			gh_annotations(dcs[k], sev, out);
	fputs("::endgroup::\n", out);
	for (size_t k = 0; k < ndcs; k++) {
		errors += diag_count(dcs[k], SEV_ERROR);
		warnings += diag_count(dcs[k], SEV_WARNING);
		notes += diag_count(dcs[k], SEV_NOTE);
		held += dcs[k]->held;
	}
	fputs("dslc: ", out); /* the summary the text format prints, the held findings too */
	report_counts(out, errors, warnings, notes, held);
	fputc('\n', out);
	return ferror(out) ? 2 : 0;
}

int report_print_all(diag_ctx *const *dcs, size_t n, report_format f, FILE *out, unsigned max_shown, const char *version,
		     const char *settings, diag_severity fail_on)
{
	if (!version) /* the JSON's "tool" and SARIF's semanticVersion are required */
		version = "dslc " DSLC_VERSION;
	switch (f) {
	case REPORT_TEXT:
		for (size_t k = 0; k < n; k++)
			diag_print_text(dcs[k], out, max_shown);
		return ferror(out) ? 2 : 0;
	case REPORT_JSON: return print_json(dcs, n, out, version, settings);
	case REPORT_SARIF: return print_sarif(dcs, n, out, version, settings);
	case REPORT_GITHUB: return print_github(dcs, n, out);
	case REPORT_GITLAB: return report_gitlab(dcs, n, out);
	case REPORT_JUNIT: return report_junit(dcs, n, out, fail_on);
	case REPORT_CHECKSTYLE: return report_checkstyle(dcs, n, out, version);
	case REPORT_CONCISE: return report_concise(dcs, n, out);
	}
	return 2;
}

int report_print(diag_ctx *dc, report_format f, FILE *out, unsigned max_shown, const char *version)
{
	return report_print_all(&dc, 1, f, out, max_shown, version, NULL, SEV_ERROR);
}
