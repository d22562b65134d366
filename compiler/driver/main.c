/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* main.c - the dslc command line: argv read (compiler/cli/args.c), then the
 * command's function from the table below. Each command lives in its own
 * file in compiler/cli/; doctor, lsp and syntax (the LSP's grammar), whose
 * rooms sit above cli/, are run from here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cli/cli.h"
#include "compiler/cli/commands.h"
#include "compiler/cli/report.h"
#include "compiler/doctor/doctor.h"
#include "compiler/doctor/manifest_check.h"
#include "compiler/lsp/server.h"
#include "compiler/lsp/syntax.h"

#ifndef DSLC_VERSION
#error "DSLC_VERSION comes from the VERSION file (the Makefile defines it)"
#endif

static int cmd_doctor(const cli *c)
{
	report_format f = REPORT_TEXT;
	if (c->format && !report_format_parse(c->format, &f))
		return cli_usage_error("doctor --format takes " REPORT_FORMAT_CHOICES ", not '%s'", c->format);
	if (c->manifest) { /* the built tree's hashes: no description, no machine */
		if (c->file)
			return cli_usage_error("--manifest checks the node against DIR/manifest.json: no description (to check against one, leave out --manifest), not '%s'", c->file);
		if (!c->node || c->snapshots || c->topology || c->collect)
			return cli_usage_error("%s", "--manifest DIR needs --node HOST (the node's name in the tree, nodes/HOST/), and takes no --snapshots, --topology or --collect");
		doctor_opts o = {.node = c->node, .root = c->root, .manifest = c->manifest, .format = f, .strict = c->strict,
				 .max_findings = c->max_findings, .disabled = c->disabled};
		return doctor_manifest_run(&o, "dslc " DSLC_VERSION);
	}
	if (!c->file)
		return cli_usage_error("%s", "no input file");
	if (!c->node && !c->snapshots)
		return cli_usage_error("%s", "doctor needs --node HOST (this machine) or --snapshots DIR (a fleet's)");
	if (c->snapshots && (c->root || c->topology || c->collect))
		return cli_usage_error("%s", "--snapshots reads each node's root and export from DIR/HOST: no --root, --topology or --collect");
	doctor_opts o = {.file = c->file, .node = c->node, .root = c->root, .topology = c->topology, .collect = c->collect,
			 .snapshots = c->snapshots, .format = f, .strict = c->strict, .max_findings = c->max_findings,
			 .disabled = c->disabled};
	return doctor_run(&o, "dslc " DSLC_VERSION);
}

static int cmd_lsp(const cli *c)
{
	if (c->file)
		return cli_usage_error("%s", "lsp takes no file: the editor sends the documents");
	return lsp_serve(stdin, stdout, stderr);
}

static int cmd_syntax(const cli *c)
{
	if (!c->file || c->node || !syntax_print(c->file, stdout))
		return cli_usage_error("%s", "syntax takes vim or textmate");
	return EXIT_CLEAN;
}

/* Every command and its function (their options and texts: commands.c). */
static const struct {
	const char *name;
	int (*run)(const cli *);
} commands[] = {
	{"build", cli_cmd_build},
	{"lint", cli_cmd_lint},
	{"fmt", cli_cmd_fmt},
	{"import", cli_cmd_import},
	{"show", cli_cmd_show},
	{"doctor", cmd_doctor},
	{"plan", cli_cmd_plan},
	{"disruptions", cli_cmd_disruptions},
	{"lsp", cmd_lsp},
	{"explain", cli_cmd_explain},
	{"rules", cli_cmd_rules},
	{"keywords", cli_cmd_keywords},
	{"version", cli_cmd_version},
	{"help", cli_cmd_help},
	{"completion", cli_cmd_completion},
	{"syntax", cmd_syntax},
	{"manpage", cli_cmd_manpage},
};

/* The command, once its arguments are read. */
static int run(const cli *c)
{
	if (c->help) { /* dslc CMD --help, whatever else is given */
		cli_print_command_help(cli_command_find(c->cmd), stdout);
		return EXIT_CLEAN;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(c->cmd, commands[i].name) == 0)
			return commands[i].run(c);
	return cli_usage_error("unknown command '%s'", c->cmd);
}

int main(int argc, char **argv)
{
	cli c;
	int nargc;
	char **args = cli_split_equals(argc, argv, &nargc);
	if (!args) {
		fprintf(stderr, "dslc: out of memory\n");
		return EXIT_USAGE;
	}
	int rc = cli_parse(nargc, args, &c);
	if (rc < 0)
		rc = run(&c);
	free(c.files);
	free(c.opts);
	free(args);
	return rc;
}
