/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* info_cmd.c - the commands that print what dslc knows (explain, rules,
 * keywords, help, version, disruptions) or writes for a tool (completion,
 * manpage), and the thin ones over a library (fmt, import). */
#include "cli.h"

#include <jansson.h>
#include <string.h>

#include "compiler/tree/disruption.h"
#include "commands.h"
#include "completion.h"
#include "fmt_files.h"
#include "import_cmd.h"
#include "manpage.h"
#include "reference.h"
#include "report.h"

int cli_cmd_explain(const cli *c)
{
	if (!c->file) {
		fprintf(stderr, "dslc: explain needs a rule id (see `dslc rules`)\n");
		return EXIT_USAGE;
	}
	const rule_info *r = rule_find(c->file);
	if (!r)
		return cli_no_such_rule(c->file);
	rule_print(r, false, stdout);
	return EXIT_CLEAN;
}

int cli_cmd_rules(const cli *c)
{
	if (c->format && strcmp(c->format, "json") == 0) {
		json_t *a = json_array();
		for (int i = 0; i < R__COUNT; i++) {
			const rule_info *r = &rule_table[i];
			char url[512];
			json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "id", r->id, "severity",
							   severity_name(r->severity), "category", r->category, "summary", r->summary,
							   "explanation", r->explanation, "fix", r->fix, "url",
							   rule_url(r, url, sizeof(url))));
		}
		int rc = json_dumpf(a, stdout, JSON_INDENT(2)) == 0 ? EXIT_CLEAN : EXIT_USAGE;
		putchar('\n');
		json_decref(a);
		return rc;
	}
	for (int i = 0; i < R__COUNT; i++) {
		const rule_info *r = &rule_table[i];
		if (c->markdown) { /* the anchor rule_url links: stable whatever the renderer makes of the heading */
			printf("<a id=\"" RULE_ANCHOR_PREFIX "%s\"></a>\n\n", r->id);
			rule_print(r, true, stdout);
		} else
			printf("%-26s %-8s %-10s %s\n", r->id, severity_name(r->severity), r->category, r->summary);
	}
	return EXIT_CLEAN;
}

int cli_cmd_keywords(const cli *c)
{
	if (c->format && strcmp(c->format, "json") == 0)
		return reference_print_json(stdout) ? EXIT_CLEAN : EXIT_USAGE;
	if (c->format)
		return cli_usage_error("keywords --format takes json, not '%s'", c->format);
	if (c->markdown)
		reference_print_markdown(stdout);
	else
		reference_print_keywords(stdout);
	return EXIT_CLEAN;
}

/* `dslc help [COMMAND]` */
int cli_cmd_help(const cli *c)
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
		return cli_usage_error("%s", "help takes one command");
	if (!cmd)
		return cli_check_command(&(cli){.cmd = c->file});
	cli_print_command_help(cmd, stdout);
	return EXIT_CLEAN;
}

int cli_cmd_version(const cli *c)
{
	(void)c;
	printf("dslc %s\n", DSLC_VERSION);
	return EXIT_CLEAN;
}

int cli_cmd_disruptions(const cli *c)
{
	(void)c;
	disruption_print_markdown(stdout);
	return EXIT_CLEAN;
}

int cli_cmd_completion(const cli *c)
{
	if (!c->file || c->node || !completion_print(c->file, stdout))
		return cli_usage_error("%s", "completion takes bash, zsh or fish");
	return EXIT_CLEAN;
}

int cli_cmd_manpage(const cli *c)
{
	if (!c->file || c->node || !manpage_print(c->file, DSLC_VERSION, stdout))
		return cli_usage_error("%s", "manpage takes dslc, dslc-language or dslc-rules");
	return EXIT_CLEAN;
}

int cli_cmd_fmt(const cli *c)
{
	if (!c->nfiles)
		return cli_usage_error("%s", "fmt needs files (- for stdin)");
	if (c->stdin_name && !cli_stdin_given(c))
		return cli_usage_error("%s", "--stdin-filename names what `-` stands for: give `-`");
	fmt_opts o = {c->check, c->diff, c->quiet, c->stdin_name};
	return fmt_files((const char *const *)c->files, c->nfiles, &o);
}

int cli_cmd_import(const cli *c)
{
	if (!c->nfiles)
		return cli_usage_error("%s", "import needs daos_server.yml files");
	report_format fmt = REPORT_TEXT;
	if (c->format && !report_format_parse(c->format, &fmt))
		return cli_usage_error("import --format takes " REPORT_FORMAT_CHOICES ", not '%s'", c->format);
	import_opts o = {(const char *const *)c->files, c->nfiles, c->hosts, c->topology, c->release, "<stdout>", NULL};
	return import_cmd(&o, fmt, c->max_findings);
}
