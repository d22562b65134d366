/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* lint_cmd.c - `dslc lint`: each file compiled once, the fragments linted
 * through their includers (lint_files.c), --fix passes, every format. */
#include "cli.h"

#include <string.h>

#include "compiler/lint/fix.h"
#include "compiler/lint/lint_config.h"
#include "compiler/lint/yaml_lint.h"
#include "baseline.h"
#include "lint_files.h"
#include "report.h"

static bool compile_lint_input(const cli *c, const char *path, compilation *comp)
{
	if (lint_config_is_name(path)) { /* a changed .dslc-lint, from pre-commit: its own checks */
		lint_config cfg;
		if (lint_config_read(&cfg, comp, path))
			return true;
		if (cfg.refused) /* not read: said as a finding at the file */
			diag_help(&comp->dc, diag_report(&comp->dc, R_IO, (src_loc){src_add(&comp->src, path, "", 0), 0, 0},
							 "%s not read: %s", path, cfg.refused), "make it a regular file");
		return !!cfg.refused;
	}
	if (strcmp(path, "-") == 0) /* read as every source is: bounded, no NUL; includes from the name's directory */
		return compile_file_as(comp, "/dev/stdin", c->stdin_name ? c->stdin_name : "<stdin>", c->disabled);
	if (yaml_lint_is_yaml(path))
		return compile_yaml(comp, path, c->release, c->topology, c->mem_gib, c->hugepage_size);
	return compile_file_with(comp, path, c->disabled);
}

/* Lints one file into comp, which the caller prints and frees, --fix passes
 * included (a fix can uncover another finding: at most 10 passes). Returns
 * EXIT_CLEAN, or EXIT_USAGE when the file cannot be read or a fix was
 * refused. */
static int lint_one(const cli *c, const char *path, report_format fmt, compilation *comp)
{
	for (int pass = 0;; pass++) {
		memset(comp, 0, sizeof(*comp));
		int rc = EXIT_CLEAN;
		if (!compile_lint_input(c, path, comp)) {
			const char *why = cli_read_error();
			if (fmt == REPORT_TEXT) {
				fprintf(stderr, "dslc: cannot read '%s': %s\n", path, why);
				return EXIT_USAGE;
			}
			/* machine formats stay valid: the failure is a finding at the file */
			uint32_t id = src_add(&comp->src, path, "", 0);
			diag *d = diag_report(&comp->dc, R_IO, (src_loc){id, 0, 0}, "cannot read '%s': %s", path, why);
			diag_help(&comp->dc, d, "check the path and permissions");
			rc = EXIT_USAGE;
		}
		cli_drop_disabled(c, comp);
		lint_paths_apply(c->lint_settings, &comp->dc, c->toggled);
		diag_sort(&comp->dc);
		if (!c->fix || rc != EXIT_CLEAN || pass == 10)
			return rc;
		if (c->diff) { /* one pass: nothing written, so nothing new to lint */
			fix_result fr = fix_preview(&comp->dc, stderr, stdout);
			if (!c->quiet)
				fprintf(stderr, "dslc: --fix --diff: %u finding%s would be fixed in %u file%s\n", fr.applied,
					fr.applied == 1 ? "" : "s", fr.files, fr.files == 1 ? "" : "s");
			return fr.files ? EXIT_FINDINGS : EXIT_CLEAN;
		}
		fix_result fr = fix_apply(&comp->dc, stderr);
		fprintf(stderr, "dslc: --fix: %u finding%s fixed in %u file%s", fr.applied, fr.applied == 1 ? "" : "s", fr.files,
			fr.files == 1 ? "" : "s");
		if (pass)
			fprintf(stderr, " (pass %d)", pass + 1);
		if (fr.skipped)
			fprintf(stderr, "; %u left for the next run (their edits overlap an earlier fix)", fr.skipped);
		fputc('\n', stderr);
		if (fr.refused)
			return EXIT_USAGE;
		if (!fr.files) /* nothing written: what is left is what this pass found */
			return rc;
		compile_free(comp); /* fixed files may show the next finding: lint what was written */
	}
}

/* --show-settings FILE: what applies to FILE's findings, and from where. */
static int show_settings(const cli *c)
{
	const lint_config *cfg = c->lint_settings;
	if (!cfg) {
		printf("%s: no lint settings apply (no %s from here up to the repository's top)\n", c->show_settings, LINT_CONFIG_NAME);
		return EXIT_CLEAN;
	}
	arena a;
	arena_init(&a);
	const char *rel = lint_paths_relative(cfg, &a, c->show_settings);
	printf("%s: settings from %s%s\n", c->show_settings, cfg->path,
	       rel ? "" : " (outside its directory: no path section can match)");
	printf("  fail_on %s%s\n", severity_name(c->fail_on), c->fail_on_given ? "  (--fail-on)" : cfg->has_fail_on ? "  (fail_on)" : "  (default)");
	if (c->baseline)
		printf("  baseline %s\n", c->baseline);
	for (int r = 0; r < R__COUNT; r++) {
		const rule_info *ri = &rule_table[r];
		const char *state = NULL, *why = NULL, *where = NULL;
		int sev = -1;
		if (cfg->disabled[r])
			state = "off", why = cfg->reason[r], where = arena_printf(&a, "%s, the lint block", cfg->path);
		for (size_t k = 0; rel && k < cfg->npaths; k++) {
			const lint_path *p = &cfg->paths[k];
			if (!lint_path_match(p->glob, rel) || (p->action[r] == PATH_KEEP && p->severity[r] < 0))
				continue;
			where = arena_printf(&a, "%s:%u, path \"%s\"", cfg->path, p->rule_line[r], p->glob);
			if (p->action[r] != PATH_KEEP)
				state = p->action[r] == PATH_DISABLE ? "off" : "on", why = p->reason[r];
			if (p->severity[r] >= 0)
				sev = p->severity[r];
		}
		if (c->toggled[r])
			state = c->disabled[r] ? "off" : "on", why = NULL, where = c->disabled[r] ? "--disable" : "--enable";
		if (!where)
			continue;
		printf("  %-26s %s%s%s%s%s  (%s)\n", ri->id, state ? state : "on",
		       sev >= 0 && (!state || strcmp(state, "off")) ? ", " : "",
		       sev >= 0 && (!state || strcmp(state, "off")) ? severity_name((diag_severity)sev) : "",
		       why ? ": " : "", why ? why : "", where);
	}
	arena_free(&a);
	return EXIT_CLEAN;
}

static int lint_files_given(const cli *given)
{
	if (given->show_settings)
		return show_settings(given);
	/* a rule a path section enables is compiled on everywhere and dropped
	 * again where no section enables it (lint_paths_apply) */
	cli eff = *given;
	if (eff.lint_settings) {
		bool enabled[R__COUNT] = {0};
		lint_paths_enabled(eff.lint_settings, enabled);
		for (int r = 0; r < R__COUNT; r++)
			if (enabled[r] && !eff.toggled[r])
				eff.disabled[r] = false;
	}
	const cli *c = &eff;
	report_format fmt = REPORT_TEXT;
	if (c->format && !report_format_parse(c->format, &fmt))
		return cli_usage_error("lint --format takes " REPORT_FORMAT_CHOICES ", not '%s'", c->format);
	if (!c->nfiles)
		return cli_usage_error("%s", "no input file, and no " LINT_CONFIG_NAME " with roots from here up to the repository's top");
	size_t nstdin = 0, ndsl = 0;
	for (size_t i = 0; i < c->nfiles; i++) {
		bool in = strcmp(c->files[i], "-") == 0;
		nstdin += in;
		ndsl += in || !yaml_lint_is_yaml(c->files[i]);
	}
	if (nstdin > 1 || (nstdin && c->fix && !c->diff))
		return cli_usage_error("%s", nstdin > 1 ? "stdin ('-') can be read once"
					     : "--fix rewrites files, not stdin ('-'); --fix --diff shows its edits");
	if (c->diff && !c->fix)
		return cli_usage_error("%s", "--diff shows the edits of --fix: give both");
	if (c->stdin_name && !nstdin)
		return cli_usage_error("%s", "--stdin-filename names what `-` stands for: give `-`");
	if (c->write_baseline && c->fix)
		return cli_usage_error("%s", "--write-baseline records the findings and --fix changes them: run one, then the other");
	if (c->strict_baseline && !c->baseline && !c->write_baseline)
		return cli_usage_error("%s", "--strict-baseline checks a baseline: give --baseline FILE (or `baseline` in .dslc-lint)");
	if (ndsl && (c->topology || c->release || c->mem_gib || c->hugepage_size)) {
		fprintf(stderr, "dslc: --topology, --release, --mem-gib and --hugepage-size apply to daos_server.yml and daos_agent.yml files; "
			"a DSL file names its topology and release itself\n");
		return EXIT_USAGE;
	}
	arena a;
	arena_init(&a);
	baseline bl = {0};
	bool use_baseline = c->baseline && !c->write_baseline; /* read first: a wrong file costs no lint */
	if (use_baseline && !baseline_read(&bl, &a, c->baseline)) {
		arena_free(&a);
		return EXIT_USAGE;
	}
	/* every file is compiled once: its lint also tells what it includes.
	 * With --fix, a file linted through another must not be fixed alone
	 * (a fragment would gain a `daos` line): fixes wait for the choice */
	cli plain = *c;
	plain.fix = false;
	compilation *comps = arena_alloc(&a, (c->nfiles + 1) * sizeof(*comps));
	int *rcs = arena_alloc(&a, (c->nfiles + 1) * sizeof(*rcs));
	/* a file's report is its findings and the lines they quote: the rest
	 * of its compilation goes before the next (lint of N roots costs N
	 * files, not N models at once) */
	lint_file *files = arena_alloc(&a, (c->nfiles + 1) * sizeof(*files));
	for (size_t i = 0; i < c->nfiles; i++) {
		rcs[i] = lint_one(&plain, c->files[i], fmt, &comps[i]);
		files[i] = lint_file_of(&a, c->files[i], &comps[i]);
		compile_keep_findings(&comps[i]);
	}
	lint_choice ch = lint_files_choose(&a, files, c->nfiles, c->quiet ? NULL : stderr);
	int rc = EXIT_CLEAN;
	for (size_t i = 0; i < c->nfiles; i++) {
		if (c->fix && !ch.skip[i] && rcs[i] == EXIT_CLEAN) {
			compile_free(&comps[i]);
			rcs[i] = lint_one(c, c->files[i], fmt, &comps[i]);
			compile_keep_findings(&comps[i]);
		}
		rc = rcs[i] > rc ? rcs[i] : rc;
	}
	size_t n = 0, total = c->nfiles + ch.nextra;
	compilation *extra = arena_alloc(&a, (ch.nextra + 1) * sizeof(*extra));
	for (size_t i = 0; i < ch.nextra; i++) {
		int r = lint_one(c, ch.extra[i], fmt, &extra[i]);
		compile_keep_findings(&extra[i]);
		rc = r > rc ? r : rc;
	}
	/* what is reported: the files not linted through another, then the
	 * descriptions that stand in for fragments */
	compilation **shown = arena_alloc(&a, (total + 1) * sizeof(*shown));
	const char **names = arena_alloc(&a, (total + 1) * sizeof(*names));
	diag_ctx **dcs = arena_alloc(&a, (total + 1) * sizeof(*dcs));
	for (size_t i = 0; i < total; i++) {
		bool given = i < c->nfiles;
		if (given && ch.skip[i])
			continue;
		shown[n] = given ? &comps[i] : &extra[i - c->nfiles];
		names[n] = given ? c->files[i] : ch.extra[i - c->nfiles];
		dcs[n] = &shown[n]->dc;
		n++;
	}
	if (c->write_baseline) {
		size_t count = 0;
		if (!baseline_write(&a, c->write_baseline, dcs, n, &count))
			rc = EXIT_USAGE;
		else if (!c->quiet)
			fprintf(stderr, "dslc: %zu finding%s recorded in %s; `dslc lint --baseline %s` reports only new ones\n", count,
				count == 1 ? "" : "s", c->write_baseline, c->write_baseline);
		for (size_t i = 0; i < total; i++)
			compile_free(i < c->nfiles ? &comps[i] : &extra[i - c->nfiles]);
		arena_free(&a);
		return rc;
	}
	size_t stale = 0;
	if (use_baseline) {
		baseline_apply(&bl, &a, dcs, n);
		stale = baseline_stale(&bl, &a, dcs, n, stderr, c->strict_baseline ? 50 : 0);
		if (stale && !c->strict_baseline && !c->quiet)
			fprintf(stderr, "dslc: %s: %zu entr%s match%s no finding any more (fixed, or the line edited): "
				"`dslc lint --write-baseline %s` drops them\n", c->baseline, stale, stale == 1 ? "y" : "ies",
				stale == 1 ? "es" : "", c->baseline);
	}
	/* --fix --diff printed the diff where the findings go; its status is whether a file would change */
	if (!(c->fix && c->diff) && report_print_all(dcs, n, fmt, stdout, c->max_findings, "dslc " DSLC_VERSION, c->settings,
							       c->fail_on))
		rc = EXIT_USAGE;
	fflush(stdout);
	bool failed = false;
	for (size_t i = 0; i < n && !(c->fix && c->diff); i++) {
		if (fmt == REPORT_TEXT && !c->quiet)
			cli_print_summary(shown[i], stderr, n > 1 ? names[i] : NULL);
		failed |= cli_fails(shown[i], c->fail_on);
	}
	if (use_baseline) {
		if (fmt == REPORT_TEXT && !c->quiet && bl.matched)
			fprintf(stderr, "dslc: %zu known finding%s not shown (%s)\n", bl.matched, bl.matched == 1 ? "" : "s", c->baseline);
		failed |= c->strict_baseline && stale;
		baseline_free(&bl);
	}
	for (size_t i = 0; i < total; i++)
		compile_free(i < c->nfiles ? &comps[i] : &extra[i - c->nfiles]);
	if (rc == EXIT_CLEAN && failed && !c->exit_zero)
		rc = EXIT_FINDINGS;
	arena_free(&a);
	return rc;
}

/* `dslc lint`: the settings applied, then the files (or the settings' roots). */
int cli_cmd_lint(const cli *c)
{
	return cli_with_settings(c, true, lint_files_given);
}
