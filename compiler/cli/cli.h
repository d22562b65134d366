/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* cli.h - the command line once read: its options (args.c), what every
 * command's run shares (session.c: compiling the input, the lint settings,
 * the summary line), and one function per command, each in its own file
 * (lint_cmd.c, build_cmd.c, plan_cmd.c, show_cmd.c, info_cmd.c). The
 * commands above this folder (doctor, lsp, syntax) are run by compiler/driver/main.c,
 * which holds the table of all of them. */
#ifndef DSLC_CLI_H
#define DSLC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compiler/base/rules.h"
#include "compiler/lint/compile.h"
#include "compiler/lint/lint_config.h"

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
	const char *picture;       /* plan --picture FILE */
	const char **files;      /* lint: every file given (file is the first) */
	size_t nfiles;
	bool help;               /* -h, --help */
	bool quiet;              /* -q: findings only, no summary */
	bool diff;               /* fmt --diff, lint --fix --diff: show, write nothing */
	const char *stdin_name;  /* --stdin-filename: the path `-` stands for */
	const char *config;      /* --config: the lint settings file instead of the .dslc-lint found */
	const char *settings;    /* the lint settings file applied (session.c), NULL: none */
	const char *root, *collect, *snapshots, *manifest; /* doctor --root, --collect, --snapshots, --manifest */
	bool toggled[R__COUNT];  /* rules the command line switched, over the settings file */
	bool fail_on_given;      /* --fail-on, over the settings file */
	bool exit_zero;          /* lint --exit-zero: findings never fail the exit status */
	const char *baseline;    /* lint --baseline (or the settings' baseline): report only new findings */
	const char *write_baseline; /* lint --write-baseline FILE */
	bool strict_baseline;    /* lint --strict-baseline: a stale entry fails */
	const char *show_settings; /* lint --show-settings FILE */
	const lint_config *lint_settings; /* the settings applied (session.c), NULL: none */
	const char **opts;       /* every option given, checked against the command's table */
	size_t nopts;
} cli;

/* args.c: argv as cli (-1 when it is good, else the exit status after a
 * usage error), `--name=value` split first */
int cli_parse(int argc, char **argv, cli *c);
char **cli_split_equals(int argc, char **argv, int *nargc);
/* An error, then the command's synopsis and where its usage is; EXIT_USAGE. */
int cli_usage_error(const char *fmt, const char *arg);
int cli_no_such_rule(const char *id);
/* -1 when c->cmd is a command and takes every option given, else EXIT_USAGE. */
int cli_check_command(const cli *c);

/* session.c */
void cli_print_summary(const compilation *comp, FILE *out, const char *name);
bool cli_fails(const compilation *comp, diag_severity fail_on);
const char *cli_read_error(void);
int cli_compile_or_fail(compilation *comp, const char *file, const bool *disabled);
void cli_drop_disabled(const cli *c, compilation *comp);
/* run(c) under the lint settings (with roots: their roots when no file is given). */
int cli_with_settings(const cli *c, bool roots, int (*run)(const cli *));
bool cli_stdin_given(const cli *c);

/* one per command */
int cli_cmd_lint(const cli *c);
int cli_cmd_build(const cli *c);
int cli_cmd_plan(const cli *c);
int cli_cmd_show(const cli *c);
int cli_cmd_fmt(const cli *c);
int cli_cmd_import(const cli *c);
int cli_cmd_explain(const cli *c);
int cli_cmd_rules(const cli *c);
int cli_cmd_keywords(const cli *c);
int cli_cmd_help(const cli *c);
int cli_cmd_version(const cli *c);
int cli_cmd_disruptions(const cli *c);
int cli_cmd_completion(const cli *c);
int cli_cmd_manpage(const cli *c);

#endif
