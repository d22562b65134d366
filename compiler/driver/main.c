/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* main.c - the dslc command line. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/rules.h"
#include "compiler/base/value.h"
#include "compiler/lint/compile.h"
#include "compiler/lint/fix.h"
#include "compiler/lint/lint_config.h"
#include "compiler/lint/yaml_lint.h"
#include "compiler/lsp/server.h"
#include "compiler/lsp/syntax.h"
#include "compiler/model/kw.h"
#include "compiler/place/place.h"
#include "compiler/plan/plan.h"
#include "compiler/tree/disruption.h"
#include "compiler/tree/output.h"
#include "compiler/tree/render.h"
#include "compiler/tree/selfcheck.h"
#include "compiler/cli/commands.h"
#include "compiler/cli/completion.h"
#include "compiler/cli/lint_files.h"
#include "compiler/cli/fmt_files.h"
#include "compiler/cli/import_cmd.h"
#include "compiler/cli/manpage.h"
#include "compiler/cli/reference.h"
#include "compiler/cli/report.h"
#include "compiler/cli/show.h"
#include "compiler/doctor/doctor.h"
#include "targets/targets.h"

#ifndef DSLC_VERSION
#error "DSLC_VERSION comes from the VERSION file (the Makefile defines it)"
#endif

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };

typedef struct cli {
	const char *cmd, *file, *out, *node, *format, *topology, *release, *hosts;
	int64_t mem_gib; /* --mem-gib: the node's RAM for hand-written YAML (0: unknown) */
	uint64_t hugepage_size; /* --hugepage-size: 2MiB or 1GiB (0: the topology's, else 2MiB) */
	bool check, strict, markdown;
	diag_severity fail_on;
	unsigned max_findings;
	bool disabled[R__COUNT]; /* --disable / --enable, applied in order */
	bool fix;                /* lint --fix */
	const char *against, *against_source; /* plan */
	unsigned max_values;     /* plan --max-values */
	int max_wave, unsafe_wave; /* plan --max-wave / --unsafe-wave */
	long long rebuild_timeout; /* plan --rebuild-timeout, seconds */
	const char **files;      /* lint: every file given (file is the first) */
	size_t nfiles;
	bool help;               /* -h, --help */
	bool quiet;              /* -q: findings only, no summary */
	bool diff;               /* fmt --diff, lint --fix --diff: show, write nothing */
	const char *stdin_name;  /* --stdin-filename: the path `-` stands for */
	const char *config;      /* --config: the lint settings file instead of the .dslc-lint found */
	const char *root, *collect, *snapshots; /* doctor --root, --collect, --snapshots */
	bool toggled[R__COUNT];  /* rules the command line switched, over the settings file */
	bool fail_on_given;      /* --fail-on, over the settings file */
	const char **opts;       /* every option given, checked against the command's table */
	size_t nopts;
} cli;

/* A rule id that is none, with the closest one. */
static int no_such_rule(const char *id)
{
	const char *sug = kw_suggest_rule(id);
	fprintf(stderr, "dslc: no rule '%s'%s%s%s (see `dslc rules`)\n", id, sug ? "; did you mean '" : "", sug ? sug : "",
		sug ? "'?" : "");
	return EXIT_USAGE;
}

/* --disable a,b / --enable a: every id must be a rule. */
static int toggle_rules(cli *c, const char *list, bool disable)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *id = strtok(buf, ","); id; id = strtok(NULL, ",")) {
		const rule_info *r = rule_find(id);
		if (!r)
			return no_such_rule(id);
		if (disable && !rule_silenceable(r)) {
			fprintf(stderr, "dslc: %s cannot be disabled: %s\n", id,
				r->rule == R_UNSAFE_VALUE ? "it keeps unsafe bytes out of the output"
				: r->rule == R_PLAN_INCOMPLETE ? "a silenced finding must not change what is built"
				: r->rule == R_INTERNAL_CONSISTENCY ? "it keeps configs DAOS refuses out of the output"
							       : "the input could not be read");
			return EXIT_USAGE;
		}
		c->disabled[r->rule] = disable;
		c->toggled[r->rule] = true;
	}
	return -1;
}

/* The command being parsed, for the usage line of an error. */
static const cli_command *usage_cmd;

/* An error, then the command's synopsis (or the commands) and where its
 * whole usage is. */
static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "dslc: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	if (usage_cmd)
		fprintf(stderr, "usage: dslc %s%s%s%s\nrun `dslc help %s` for its options and examples\n", usage_cmd->name,
			*usage_cmd->args ? " " : "", usage_cmd->args, usage_cmd->options[0] ? " [options]" : "", usage_cmd->name);
	else
		fprintf(stderr, "run `dslc help` for the commands\n");
	return EXIT_USAGE;
}

/* The index of word in a NULL-terminated list of names, or -1. */
static int choice_index(const char *word, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(word, names[i]) == 0)
			return i;
	return -1;
}

/* A decimal option value within [min, max]: the whole word, as strtoll reads it. */
static bool number_arg(const char *s, long long min, long long max, long long *v)
{
	char *end;
	*v = strtoll(s, &end, 10);
	return !*end && *v >= min && *v <= max;
}

/* The command exists and takes every option given (the table in
 * commands.c is what help, the man page and the completions show). */
static int check_command(const cli *c)
{
	const cli_command *cmd = cli_command_find(c->cmd);
	if (!cmd) {
		const char *names[64];
		size_t n = 0;
		for (size_t i = 0; i < cli_command_count && n < 64; i++)
			names[n++] = cli_commands[i].name;
		const char *sug = kw_suggest(c->cmd, names, n);
		fprintf(stderr, "dslc: unknown command '%s'%s%s%s\nrun `dslc help` for the commands\n", c->cmd,
			sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < c->nopts; i++)
		if (!cli_command_option(cmd, c->opts[i])) {
			char msg[256];
			snprintf(msg, sizeof(msg), "%s does not take %.200s", cmd->name, c->opts[i]);
			return usage_error("%s", msg);
		}
	return -1;
}

static int parse_args(int argc, char **argv, cli *c)
{
	memset(c, 0, sizeof(*c));
	c->fail_on = SEV_ERROR;
	c->max_findings = 100;
	c->max_values = 10;
	if (!(c->opts = malloc((size_t)argc * sizeof(*c->opts))))
		return usage_error("%s", "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1])
			c->opts[c->nopts++] = a;
		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (++i == argc)
				return usage_error("%s needs a directory", a);
			c->out = argv[i];
		} else if (strcmp(a, "--format") == 0) {
			if (++i == argc)
				return usage_error("%s needs text or json", a);
			report_format f;
			if (!report_format_parse(argv[i], &f) && strcmp(argv[i], "markdown") != 0 && strcmp(argv[i], "script") != 0)
				return usage_error("--format takes text, json, sarif, github or (plan) markdown or script, not '%s'", argv[i]);
			c->format = argv[i];
		} else if (strcmp(a, "--against") == 0 || strcmp(a, "--against-source") == 0) {
			if (++i == argc)
				return usage_error(strcmp(a, "--against") == 0 ? "%s needs an output directory" : "%s needs a description", a);
			*(strcmp(a, "--against") == 0 ? &c->against : &c->against_source) = argv[i];
		} else if (strcmp(a, "--max-wave") == 0 || strcmp(a, "--unsafe-wave") == 0) {
			long long v;
			if (++i == argc)
				return usage_error("%s needs a number of nodes", a);
			if (!number_arg(argv[i], 1, 1000000, &v))
				return usage_error("--max-wave and --unsafe-wave take a number of nodes (1 or more), not '%s'", argv[i]);
			*(strcmp(a, "--max-wave") == 0 ? &c->max_wave : &c->unsafe_wave) = (int)v;
		} else if (strcmp(a, "--rebuild-timeout") == 0) {
			uint64_t ms;
			const char *why;
			if (++i == argc)
				return usage_error("%s needs a duration (90min, 6h)", a);
			if (!val_duration(argv[i], &ms, &why) || ms < 1000 || ms > 30ull * 86400 * 1000)
				return usage_error("--rebuild-timeout takes a duration from 1s to 720h (90min, 6h), not '%s'", argv[i]);
			c->rebuild_timeout = (long long)(ms / 1000);
		} else if (strcmp(a, "--max-values") == 0) {
			long long v;
			if (++i == argc)
				return usage_error("%s needs a number", a);
			if (!number_arg(argv[i], 0, 1000000, &v))
				return usage_error("--max-values takes a number (0 = all), not '%s'", argv[i]);
			c->max_values = (unsigned)v;
		} else if (strcmp(a, "--disable") == 0 || strcmp(a, "--enable") == 0) {
			if (++i == argc)
				return usage_error("%s needs rule ids", a);
			int rc = toggle_rules(c, argv[i], strcmp(a, "--disable") == 0);
			if (rc >= 0)
				return rc;
		} else if (strcmp(a, "--topology") == 0 || strcmp(a, "--release") == 0) {
			if (++i == argc)
				return usage_error("%s needs a value", a);
			if (strcmp(a, "--release") == 0 && !daos_release_find(argv[i]))
				return usage_error("--release takes a DAOS release such as 2.6 or 2.8, not '%s'", argv[i]);
			*(strcmp(a, "--topology") == 0 ? &c->topology : &c->release) = argv[i];
		} else if (strcmp(a, "--node") == 0 || strcmp(a, "--root") == 0 || strcmp(a, "--collect") == 0 ||
			   strcmp(a, "--snapshots") == 0) {
			if (++i == argc)
				return usage_error(strcmp(a, "--node") == 0 ? "%s needs a host name" : "%s needs a directory", a);
			*(a[2] == 'n' ? &c->node : a[2] == 'r' ? &c->root : a[2] == 'c' ? &c->collect : &c->snapshots) = argv[i];
		} else if (strcmp(a, "--host") == 0) {
			if (++i == argc)
				return usage_error("%s needs host names", a);
			c->hosts = argv[i];
		} else if (strcmp(a, "--mem-gib") == 0) {
			long long v;
			if (++i == argc)
				return usage_error("%s needs a number of GiB", a);
			if (!number_arg(argv[i], 1, 1048576, &v))
				return usage_error("--mem-gib takes the node's memory in GiB (1 to 1048576), not '%s'", argv[i]);
			c->mem_gib = v;
		} else if (strcmp(a, "--hugepage-size") == 0) {
			const char *why;
			if (++i == argc)
				return usage_error("%s needs 2MiB or 1GiB", a);
			if (!val_size(argv[i], &c->hugepage_size, &why) || (c->hugepage_size != 2 * MiB && c->hugepage_size != GiB))
				return usage_error("--hugepage-size takes 2MiB or 1GiB, not '%s'", argv[i]);
		} else if (strcmp(a, "--color") == 0) {
			static const char *const modes[] = {"auto", "always", "never", NULL}; /* diag_colour_mode's order */
			if (++i == argc)
				return usage_error("%s needs auto, always or never", a);
			int k = choice_index(argv[i], modes);
			if (k < 0)
				return usage_error("--color takes auto, always or never, not '%s'", argv[i]);
			diag_set_colour((diag_colour_mode)k);
		} else if (strcmp(a, "--config") == 0) {
			if (++i == argc)
				return usage_error("%s needs the lint settings file", a);
			c->config = argv[i];
		} else if (strcmp(a, "--stdin-filename") == 0) {
			if (++i == argc)
				return usage_error("%s needs the path the description on stdin stands for", a);
			c->stdin_name = argv[i];
		} else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
			c->quiet = true;
		} else if (strcmp(a, "--diff") == 0) {
			c->diff = true;
		} else if (strcmp(a, "--check") == 0) {
			c->check = true;
		} else if (strcmp(a, "--stdio") == 0) {
			/* the only transport: accepted as editors' clients pass it */
		} else if (strcmp(a, "--strict") == 0) {
			c->strict = true;
		} else if (strcmp(a, "--markdown") == 0) {
			c->markdown = true;
		} else if (strcmp(a, "--fix") == 0) {
			c->fix = true;
		} else if (strcmp(a, "--fail-on") == 0) {
			if (++i == argc)
				return usage_error("%s needs error, warning or note", a);
			if (!severity_parse(argv[i], &c->fail_on))
				return usage_error("--fail-on takes error, warning or note, not '%s'", argv[i]);
			c->fail_on_given = true;
		} else if (strcmp(a, "--max-findings") == 0) {
			long long v;
			if (++i == argc)
				return usage_error("%s needs a number", a);
			if (!number_arg(argv[i], 0, LLONG_MAX, &v))
				return usage_error("--max-findings takes a number, not '%s'", argv[i]);
			c->max_findings = (unsigned)v;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			c->help = true;
		} else if (strcmp(a, "--version") == 0) {
			c->cmd = "version";
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option '%s'", a);
		} else if (!c->cmd) {
			c->cmd = a;
			usage_cmd = cli_command_find(a);
		} else {
			if ((strcmp(c->cmd, "lint") && strcmp(c->cmd, "fmt") && strcmp(c->cmd, "import") && c->file && c->node) ||
			    (strcmp(c->cmd, "doctor") == 0 && c->file))
				return usage_error("unexpected argument '%s'", a);
			if (!c->files && !(c->files = malloc((size_t)argc * sizeof(*c->files))))
				return usage_error("%s", "out of memory");
			c->files[c->nfiles++] = a;
			if (!c->file)
				c->file = a;
			else if (!c->node)
				c->node = a;
		}
	}
	if (!c->cmd && c->help) { /* dslc --help: the commands */
		c->cmd = "help";
		c->help = false;
	}
	if (!c->cmd)
		return usage_error("%s", "no command given");
	return check_command(c);
}

/* The counts of one compilation; with several (lint A B), named. */
static void print_summary(const compilation *comp, FILE *out, const char *name)
{
	unsigned e = diag_count(&comp->dc, SEV_ERROR), w = diag_count(&comp->dc, SEV_WARNING),
		 n = diag_count(&comp->dc, SEV_NOTE);
	if (e + w + n)
		fprintf(out, "dslc: %s%s%u error%s, %u warning%s%s\n", name ? name : "", name ? ": " : "", e, e == 1 ? "" : "s", w,
			w == 1 ? "" : "s", n ? (n == 1 ? ", 1 note" : ", notes") : "");
}

static bool fails(const compilation *comp, diag_severity fail_on)
{
	for (int s = fail_on; s <= SEV_ERROR; s++)
		if (diag_count(&comp->dc, (diag_severity)s))
			return true;
	return false;
}

static const char *read_error(void)
{
	return src_strerror(errno);
}

static int compile_or_fail(compilation *comp, const char *file, const bool *disabled)
{
	if (!file) {
		return usage_error("%s", "no input file"); /* nothing to free: compile_file was not called */
	}
	if (!compile_file_with(comp, file, disabled)) {
		fprintf(stderr, "dslc: cannot read '%s': %s\n", file, read_error());
		compile_free(comp);
		return EXIT_USAGE;
	}
	diag_sort(&comp->dc);
	return -1;
}

static void drop_disabled(const cli *c, compilation *comp)
{
	for (int i = 0; i < R__COUNT; i++)
		if (c->disabled[i])
			diag_drop_rule(&comp->dc, &rule_table[i]);
}

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
			const char *why = read_error();
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
		drop_disabled(c, comp);
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

/* The lint settings (--config, or the .dslc-lint found from here up) under
 * the command line's choices, into eff; with roots, its roots when no file
 * is given. comp holds the file's text (the caller frees it when cfg->path
 * is set). Returns -1, or the exit status of a settings file that is wrong. */
static int apply_config(const cli *c, bool roots, arena *a, lint_config *cfg, compilation *comp, cli *eff)
{
	*eff = *c;
	memset(cfg, 0, sizeof(*cfg));
	const char *path = c->config ? c->config : lint_config_find(a);
	if (!path)
		return -1;
	if (!lint_config_read(cfg, comp, path)) {
		fprintf(stderr, "dslc: cannot read the lint settings '%s': %s\n", path, cfg->refused ? cfg->refused : read_error());
		compile_free(comp);
		cfg->path = NULL;
		return EXIT_USAGE;
	}
	if (diag_count(&comp->dc, SEV_ERROR)) {
		diag_print_text(&comp->dc, stderr, 0);
		fprintf(stderr, "dslc: %s is wrong: fix it (or name another with --config)\n", path);
		return EXIT_USAGE;
	}
	for (int i = 0; i < R__COUNT; i++)
		if (!c->toggled[i] && cfg->disabled[i])
			eff->disabled[i] = true;
	if (!c->fail_on_given && cfg->has_fail_on)
		eff->fail_on = cfg->fail_on;
	if (roots && !c->nfiles && cfg->nroots) {
		eff->files = cfg->roots;
		eff->nfiles = cfg->nroots;
		eff->file = eff->files[0];
	}
	return -1;
}

/* A command run under the lint settings (lint, with their roots; build). */
static int with_settings(const cli *c, bool roots, int (*run)(const cli *))
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

static int lint_files_given(const cli *c)
{
	report_format fmt = REPORT_TEXT;
	if (c->format && !report_format_parse(c->format, &fmt))
		return usage_error("lint --format takes text, json, sarif or github, not '%s'", c->format);
	if (!c->nfiles)
		return usage_error("%s", "no input file, and no " LINT_CONFIG_NAME " with roots from here up to the repository's top");
	size_t nstdin = 0, ndsl = 0;
	for (size_t i = 0; i < c->nfiles; i++) {
		bool in = strcmp(c->files[i], "-") == 0;
		nstdin += in;
		ndsl += in || !yaml_lint_is_yaml(c->files[i]);
	}
	if (nstdin > 1 || (nstdin && c->fix && !c->diff))
		return usage_error("%s", nstdin > 1 ? "stdin ('-') can be read once"
					     : "--fix rewrites files, not stdin ('-'); --fix --diff shows its edits");
	if (c->diff && !c->fix)
		return usage_error("%s", "--diff shows the edits of --fix: give both");
	if (c->stdin_name && !nstdin)
		return usage_error("%s", "--stdin-filename names what `-` stands for: give `-`");
	if (ndsl && (c->topology || c->release || c->mem_gib || c->hugepage_size)) {
		fprintf(stderr, "dslc: --topology, --release, --mem-gib and --hugepage-size apply to daos_server.yml and daos_agent.yml files; "
			"a DSL file names its topology and release itself\n");
		return EXIT_USAGE;
	}
	arena a;
	arena_init(&a);
	/* every file is compiled once: its lint also tells what it includes.
	 * With --fix, a file linted through another must not be fixed alone
	 * (a fragment would gain a `daos` line): fixes wait for the choice */
	cli plain = *c;
	plain.fix = false;
	compilation *comps = arena_alloc(&a, (c->nfiles + 1) * sizeof(*comps));
	int *rcs = arena_alloc(&a, (c->nfiles + 1) * sizeof(*rcs));
	for (size_t i = 0; i < c->nfiles; i++)
		rcs[i] = lint_one(&plain, c->files[i], fmt, &comps[i]);
	lint_choice ch = lint_files_choose(&a, c->files, comps, c->nfiles, c->quiet ? NULL : stderr);
	int rc = EXIT_CLEAN;
	for (size_t i = 0; i < c->nfiles; i++) {
		if (c->fix && !ch.skip[i] && rcs[i] == EXIT_CLEAN) {
			compile_free(&comps[i]);
			rcs[i] = lint_one(c, c->files[i], fmt, &comps[i]);
		}
		rc = rcs[i] > rc ? rcs[i] : rc;
	}
	size_t n = 0, total = c->nfiles + ch.nextra;
	compilation *extra = arena_alloc(&a, (ch.nextra + 1) * sizeof(*extra));
	for (size_t i = 0; i < ch.nextra; i++) {
		int r = lint_one(c, ch.extra[i], fmt, &extra[i]);
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
	/* --fix --diff printed the diff where the findings go; its status is whether a file would change */
	if (!(c->fix && c->diff) && report_print_all(dcs, n, fmt, stdout, c->max_findings, "dslc " DSLC_VERSION))
		rc = EXIT_USAGE;
	fflush(stdout);
	bool failed = false;
	for (size_t i = 0; i < n && !(c->fix && c->diff); i++) {
		if (fmt == REPORT_TEXT && !c->quiet)
			print_summary(shown[i], stderr, n > 1 ? names[i] : NULL);
		failed |= fails(shown[i], c->fail_on);
	}
	for (size_t i = 0; i < total; i++)
		compile_free(i < c->nfiles ? &comps[i] : &extra[i - c->nfiles]);
	if (rc == EXIT_CLEAN && failed)
		rc = EXIT_FINDINGS;
	arena_free(&a);
	return rc;
}

/* `dslc lint`: the settings applied, then the files (or the settings' roots). */
static int cmd_lint(const cli *c)
{
	return with_settings(c, true, lint_files_given);
}

static void describe_placement(const model *m, FILE *out)
{
	for (size_t i = 0; i < m->nspecs; i++) {
		const node_plan *p = m->specs[i]->plan;
		if (p && p->client) {
			fprintf(out, "dslc: %s: client only (no engines): daos_agent.yml", m->specs[i]->origin);
			/* what the file holds, never more (daos_agent.c fabric_ifaces) */
			bool listed = place_fabric_domains_known(p);
			if (!listed && p->nclient_nics)
				fprintf(out, " without fabric_ifaces (the agent scans the fabric:");
			for (int k = 0, shown = 0; k < p->nclient_nics; k++) {
				const nic_desc *n = p->client_nics[k];
				if (listed)
					fprintf(out, "%s %s", shown++ ? "," : " with fabric_ifaces", n->name);
				else if (!n->rdma)
					fprintf(out, "%s no domain for %s", shown++ ? "," : "", n->name);
				else if (!place_nic_numa_known(p, n))
					fprintf(out, "%s %s on no known NUMA node", shown++ ? "," : "", n->name);
			}
			fprintf(out, "%s\n", listed || !p->nclient_nics ? "" : ")");
			continue;
		}
		if (!p || !p->nengines)
			continue;
		fprintf(out, "dslc: %s: %d engine%s on", m->specs[i]->origin, p->nengines, p->nengines == 1 ? "" : "s");
		for (int e = 0; e < p->nengines; e++)
			fprintf(out, "%s %s", e ? "," : "", p->engines[e].nic ? p->engines[e].nic->name : "no NIC");
		fprintf(out, ", %s\n", p->pinned_mode ? "pinned_numa_node (each engine starts at its NUMA node's first core)"
							: "first_core (engine cores do not start at their NUMA node's first core; "
							  "DAOS then drops NUMA pinning)");
	}
}

static int build_with(const cli *c)
{
	if (!c->out)
		return usage_error("%s", "build needs -o DIR");
	compilation comp;
	int rc = compile_or_fail(&comp, c->file, c->disabled);
	if (rc >= 0)
		return rc;
	drop_disabled(c, &comp);
	/* the build checks what it writes, rendered once for both */
	render_memo *memo = render_memo_new(&comp.ar);
	if (!diag_count(&comp.dc, SEV_ERROR) && selfcheck_model(&comp.m, c->disabled, memo))
		diag_sort(&comp.dc);
	diag_print_text(&comp.dc, stderr, c->max_findings);
	if (!c->quiet)
		print_summary(&comp, stderr, NULL);
	if (diag_count(&comp.dc, SEV_ERROR)) {
		fprintf(stderr, "dslc: nothing written: fix the errors above\n");
		compile_free(&comp);
		return EXIT_FINDINGS;
	}
	output_stats st;
	output_opts opts = {c->check, c->strict, "dslc " DSLC_VERSION, memo};
	rc = output_build(&comp.m, c->out, &opts, &st);
	if (rc == 0 && !c->check && !c->quiet) {
		fprintf(stderr, "dslc: %zu files for %zu nodes in %s: %zu written, %zu unchanged, %zu removed\n", st.files,
			comp.m.nnodes, c->out, st.written, st.unchanged, st.removed);
		describe_placement(&comp.m, stderr);
	} else if (c->check) {
		if (rc == 0 && !c->quiet)
			fprintf(stderr, "dslc: %s is up to date (%zu files)\n", c->out, st.files);
		else if (rc == 1 && st.files)
			fprintf(stderr, "dslc: %s is stale: %zu of %zu files differ, are missing or extra; run dslc build\n",
				c->out, st.stale, st.files);
	}
	if (rc == 0 && fails(&comp, c->fail_on))
		rc = EXIT_FINDINGS;
	compile_free(&comp);
	return rc;
}

/* `dslc build`: the lint settings' disabled rules and fail_on apply too
 * (they silence reports and set the exit status; what is built is the same). */
static int cmd_build(const cli *c)
{
	return with_settings(c, false, build_with); /* build compiles FILE: the roots are lint's */
}

static int cmd_plan(const cli *c)
{
	if (!c->file || (!c->against == !c->against_source))
		return usage_error("%s", "plan needs FILE and one of --against DIR or --against-source OLD.dsl");
	plan_opts o = {c->file, c->against, c->against_source, PLAN_TEXT, false, c->max_values, c->max_wave, c->unsafe_wave,
		       c->rebuild_timeout};
	if (c->format && strcmp(c->format, "markdown") == 0)
		o.format = PLAN_MARKDOWN;
	else if (c->format && strcmp(c->format, "json") == 0)
		o.format = PLAN_JSON;
	else if (c->format && strcmp(c->format, "script") == 0)
		o.format = PLAN_SCRIPT;
	else if (c->format && strcmp(c->format, "text") != 0)
		return usage_error("plan --format takes text, markdown, json or script, not '%s'", c->format);
	o.colour = o.format == PLAN_TEXT && diag_use_colour(stdout);
	return plan_run(&o, "dslc " DSLC_VERSION);
}

static int cmd_show(const cli *c)
{
	compilation comp;
	int rc = compile_or_fail(&comp, c->file, c->disabled);
	if (rc >= 0)
		return rc;
	if (!c->node) { /* the names a NODE can be (the shell completions ask) */
		for (size_t i = 0; i < comp.m.nnodes; i++)
			printf("%s\n", comp.m.nodes[i].host);
		diag_print_text(&comp.dc, stderr, c->max_findings);
		print_summary(&comp, stderr, NULL);
		rc = diag_count(&comp.dc, SEV_ERROR) ? EXIT_FINDINGS : EXIT_CLEAN;
		compile_free(&comp);
		return rc;
	}
	const node *nd = model_node(&comp.m, c->node);
	if (diag_count(&comp.dc, SEV_ERROR) || !nd || !nd->spec || !nd->spec->plan || !nd->spec->plan->ok) {
		diag_print_text(&comp.dc, stderr, c->max_findings);
		print_summary(&comp, stderr, NULL);
		if (!nd)
			fprintf(stderr, "dslc: %s is not a node of %s\n", c->node, c->file);
		else
			fprintf(stderr, "dslc: the plan of %s cannot be shown: fix the errors above\n", c->node);
		compile_free(&comp);
		return EXIT_FINDINGS;
	}
	if (c->format && strcmp(c->format, "json") == 0)
		rc = show_node_json(&comp.m, nd, stdout);
	else
		show_node_text(&comp.m, nd, stdout);
	compile_free(&comp);
	return rc > 0 ? rc : EXIT_CLEAN;
}

static int cmd_doctor(const cli *c)
{
	if (!c->file)
		return usage_error("%s", "no input file");
	if (!c->node && !c->snapshots)
		return usage_error("%s", "doctor needs --node HOST (this machine) or --snapshots DIR (a fleet's)");
	if (c->snapshots && (c->root || c->topology || c->collect))
		return usage_error("%s", "--snapshots reads each node's root and export from DIR/HOST: no --root, --topology or --collect");
	report_format f = REPORT_TEXT;
	if (c->format && !report_format_parse(c->format, &f))
		return usage_error("doctor --format takes text, json, sarif or github, not '%s'", c->format);
	doctor_opts o = {c->file, c->node, c->root, c->topology, c->collect, c->snapshots, f, c->strict, c->max_findings,
			 c->disabled};
	return doctor_run(&o, "dslc " DSLC_VERSION);
}

static int cmd_explain(const cli *c)
{
	if (!c->file) {
		fprintf(stderr, "dslc: explain needs a rule id (see `dslc rules`)\n");
		return EXIT_USAGE;
	}
	const rule_info *r = rule_find(c->file);
	if (!r)
		return no_such_rule(c->file);
	rule_print(r, false, stdout);
	return EXIT_CLEAN;
}

static int cmd_rules(const cli *c)
{
	if (c->format && strcmp(c->format, "json") == 0) {
		json_t *a = json_array();
		for (int i = 0; i < R__COUNT; i++) {
			const rule_info *r = &rule_table[i];
			json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "id", r->id, "severity",
							   severity_name(r->severity), "category", r->category, "summary", r->summary,
							   "explanation", r->explanation, "fix", r->fix));
		}
		int rc = json_dumpf(a, stdout, JSON_INDENT(2)) == 0 ? EXIT_CLEAN : EXIT_USAGE;
		putchar('\n');
		json_decref(a);
		return rc;
	}
	for (int i = 0; i < R__COUNT; i++) {
		const rule_info *r = &rule_table[i];
		if (c->markdown)
			rule_print(r, true, stdout);
		else
			printf("%-26s %-8s %-10s %s\n", r->id, severity_name(r->severity), r->category, r->summary);
	}
	return EXIT_CLEAN;
}

static int cmd_keywords(const cli *c)
{
	if (c->format && strcmp(c->format, "json") == 0)
		return reference_print_json(stdout) ? EXIT_CLEAN : EXIT_USAGE;
	if (c->format)
		return usage_error("keywords --format takes json, not '%s'", c->format);
	if (c->markdown)
		reference_print_markdown(stdout);
	else
		reference_print_keywords(stdout);
	return EXIT_CLEAN;
}

static bool stdin_given(const cli *c)
{
	for (size_t i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i], "-") == 0)
			return true;
	return false;
}

/* `dslc help [COMMAND]` */
static int cmd_help(const cli *c)
{
	if (c->markdown) {
		cli_print_markdown(stdout);
		return EXIT_CLEAN;
	}
	if (!c->file) {
		cli_print_overview(stdout);
		return EXIT_CLEAN;
	}
	const cli_command *cmd = cli_command_find(c->file);
	if (c->node)
		return usage_error("%s", "help takes one command");
	if (!cmd)
		return check_command(&(cli){.cmd = c->file});
	cli_print_command_help(cmd, stdout);
	return EXIT_CLEAN;
}

/* The command, once its arguments are read. */
static int run(const cli *c)
{
	if (c->help) { /* dslc CMD --help, whatever else is given */
		cli_print_command_help(cli_command_find(c->cmd), stdout);
		return EXIT_CLEAN;
	}
	if (strcmp(c->cmd, "build") == 0)
		return cmd_build(c);
	if (strcmp(c->cmd, "lint") == 0)
		return cmd_lint(c);
	if (strcmp(c->cmd, "fmt") == 0) {
		if (!c->nfiles)
			return usage_error("%s", "fmt needs files (- for stdin)");
		if (c->stdin_name && !stdin_given(c))
			return usage_error("%s", "--stdin-filename names what `-` stands for: give `-`");
		fmt_opts o = {c->check, c->diff, c->quiet, c->stdin_name};
		return fmt_files((const char *const *)c->files, c->nfiles, &o);
	}
	if (strcmp(c->cmd, "import") == 0) {
		if (!c->nfiles)
			return usage_error("%s", "import needs daos_server.yml files");
		report_format fmt = REPORT_TEXT;
		if (c->format && !report_format_parse(c->format, &fmt))
			return usage_error("import --format takes text, json, sarif or github, not '%s'", c->format);
		import_opts o = {(const char *const *)c->files, c->nfiles, c->hosts, c->topology, c->release, "<stdout>", NULL};
		return import_cmd(&o, fmt, c->max_findings);
	}
	if (strcmp(c->cmd, "show") == 0)
		return cmd_show(c);
	if (strcmp(c->cmd, "doctor") == 0)
		return cmd_doctor(c);
	if (strcmp(c->cmd, "plan") == 0)
		return cmd_plan(c);
	if (strcmp(c->cmd, "disruptions") == 0) {
		disruption_print_markdown(stdout);
		return EXIT_CLEAN;
	}
	if (strcmp(c->cmd, "lsp") == 0) {
		if (c->file)
			return usage_error("%s", "lsp takes no file: the editor sends the documents");
		return lsp_serve(stdin, stdout, stderr);
	}
	if (strcmp(c->cmd, "explain") == 0)
		return cmd_explain(c);
	if (strcmp(c->cmd, "rules") == 0)
		return cmd_rules(c);
	if (strcmp(c->cmd, "keywords") == 0)
		return cmd_keywords(c);
	if (strcmp(c->cmd, "version") == 0) {
		printf("dslc %s\n", DSLC_VERSION);
		return EXIT_CLEAN;
	}
	if (strcmp(c->cmd, "help") == 0)
		return cmd_help(c);
	if (strcmp(c->cmd, "completion") == 0) {
		if (!c->file || c->node || !completion_print(c->file, stdout))
			return usage_error("%s", "completion takes bash, zsh or fish");
		return EXIT_CLEAN;
	}
	if (strcmp(c->cmd, "syntax") == 0) {
		if (!c->file || c->node || !syntax_print(c->file, stdout))
			return usage_error("%s", "syntax takes vim or textmate");
		return EXIT_CLEAN;
	}
	if (strcmp(c->cmd, "manpage") == 0) {
		if (!c->file || c->node || !manpage_print(c->file, DSLC_VERSION, stdout))
			return usage_error("%s", "manpage takes dslc, dslc-language or dslc-rules");
		return EXIT_CLEAN;
	}
	return usage_error("unknown command '%s'", c->cmd);
}

/* `--name=value` as `--name value` for an option that takes a value
 * (--color=never, as GNU tools spell it); argv's strings are cut at '='. */
static char **split_equals(int argc, char **argv, int *nargc)
{
	char **v = malloc((size_t)(2 * argc + 1) * sizeof(*v));
	int n = 0;
	for (int i = 0; v && i < argc; i++) {
		char *eq = i && strncmp(argv[i], "--", 2) == 0 ? strchr(argv[i], '=') : NULL;
		v[n++] = argv[i];
		if (eq) {
			*eq = '\0';
			if (cli_option_takes_value(argv[i])) {
				v[n++] = eq + 1;
			} else {
				*eq = '='; /* a flag or no option: reported as given */
			}
		}
	}
	if (v)
		v[n] = NULL;
	*nargc = n;
	return v;
}

int main(int argc, char **argv)
{
	cli c;
	int nargc;
	char **args = split_equals(argc, argv, &nargc);
	if (!args) {
		fprintf(stderr, "dslc: out of memory\n");
		return EXIT_USAGE;
	}
	int rc = parse_args(nargc, args, &c);
	if (rc < 0)
		rc = run(&c);
	free(c.files);
	free(c.opts);
	free(args);
	return rc;
}
