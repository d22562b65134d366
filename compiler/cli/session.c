/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* session.c - what every command's run shares: compiling its input, the lint
 * settings over the command line, the summary line. See cli.h. */
#include "cli.h"

#include <errno.h>
#include <string.h>

#include "compiler/lint/lint_config.h"
#include "report.h"

/* The counts of one compilation; with several (lint A B), named. */
void cli_print_summary(const compilation *comp, FILE *out, const char *name)
{
	unsigned e = diag_count(&comp->dc, SEV_ERROR), w = diag_count(&comp->dc, SEV_WARNING),
		 n = diag_count(&comp->dc, SEV_NOTE);
	if (!(e + w + n))
		return; /* (findings wait only for an error: none waits here) */
	fputs("dslc: ", out);
	if (name) {
		diag_print_escaped(out, name);
		fputs(": ", out);
	}
	report_counts(out, e, w, n, comp->dc.held);
	fputc('\n', out);
}

bool cli_fails(const compilation *comp, diag_severity fail_on)
{
	for (int s = fail_on; s <= SEV_ERROR; s++)
		if (diag_count(&comp->dc, (diag_severity)s))
			return true;
	return false;
}

const char * cli_read_error(void)
{
	return src_strerror(errno);
}

int cli_compile_or_fail(compilation *comp, const char *file, const bool *disabled)
{
	if (!file) {
		return cli_usage_error("%s", "no input file"); /* nothing to free: compile_file was not called */
	}
	if (!compile_file_with(comp, file, disabled)) {
		fprintf(stderr, "dslc: cannot read '%s': %s\n", file, cli_read_error());
		compile_free(comp);
		return EXIT_USAGE;
	}
	diag_sort(&comp->dc);
	return -1;
}

void cli_drop_disabled(const cli *c, compilation *comp)
{
	for (int i = 0; i < R__COUNT; i++)
		if (c->disabled[i])
			diag_drop_rule(&comp->dc, &rule_table[i]);
}

/* The lint settings (--config, or the .dslc-lint found from here up) under
 * the command line's choices, into eff; with roots, its roots when no file
 * is given. comp holds the file's text (the caller frees it when cfg->path
 * is set). Returns -1, or the exit status of a settings file that is wrong. */
static int apply_config(const cli *c, bool roots, arena *a, lint_config *cfg, compilation *comp, cli *eff)
{
	*eff = *c;
	memset(cfg, 0, sizeof(*cfg));
	const char *untrusted = NULL;
	const char *path = c->config ? c->config : lint_config_find(a, &untrusted);
	if (untrusted) /* said even with -q: findings it would have silenced are shown, a build it would fail passes */
		fprintf(stderr, "dslc: %s not applied: another user owns it (name it with --config to use it)\n", untrusted);
	if (!path)
		return -1;
	if (!lint_config_read(cfg, comp, path)) {
		fprintf(stderr, "dslc: cannot read the lint settings '%s': %s\n", path, cfg->refused ? cfg->refused : cli_read_error());
		compile_free(comp);
		cfg->path = NULL;
		return EXIT_USAGE;
	}
	if (diag_count(&comp->dc, SEV_ERROR)) {
		diag_print_text(&comp->dc, stderr, 0);
		fprintf(stderr, "dslc: %s is wrong: fix it (or name another with --config)\n", path);
		return EXIT_USAGE;
	}
	if (!c->quiet) {
		fprintf(stderr, "dslc: lint settings from %s\n", path);
		if (cfg->nrepeated)
			fprintf(stderr, "dslc: %s:%u: %zu root%s name%s a file named before: each file is linted once\n", path,
				cfg->repeated_line, cfg->nrepeated, cfg->nrepeated == 1 ? "" : "s", cfg->nrepeated == 1 ? "s" : "");
	}
	eff->settings = path;
	eff->lint_settings = cfg;
	for (int i = 0; i < R__COUNT; i++)
		if (!c->toggled[i] && cfg->disabled[i])
			eff->disabled[i] = true;
	if (!c->fail_on_given && cfg->has_fail_on)
		eff->fail_on = cfg->fail_on;
	if (!c->baseline && cfg->baseline)
		eff->baseline = cfg->baseline;
	if (roots && !c->nfiles && cfg->nroots) {
		eff->files = cfg->roots;
		eff->nfiles = cfg->nroots;
		eff->file = eff->files[0];
	}
	return -1;
}

/* A command run under the lint settings (lint, with their roots; build). */
int cli_with_settings(const cli *c, bool roots, int (*run)(const cli *))
{
	arena a;
	arena_init(&a);
	lint_config cfg;
	compilation cfg_comp;
	cli eff;
	int rc = apply_config(c, roots, &a, &cfg, &cfg_comp, &eff);
	if (rc < 0)
		rc = run(&eff);
	if (cfg.path)
		compile_free(&cfg_comp);
	arena_free(&a);
	return rc;
}

bool cli_stdin_given(const cli *c)
{
	for (size_t i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i], "-") == 0)
			return true;
	return false;
}
