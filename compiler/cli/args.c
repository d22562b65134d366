/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* args.c - the command line read into a cli: every option with its value
 * checked, the command's table (commands.c) asked whether it takes each. See
 * cli.h. */
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/base/value.h"
#include "compiler/model/daos.h"
#include "compiler/model/kw.h"
#include "commands.h"
#include "report.h"

/* A rule id that is none, with the closest one. */
int cli_no_such_rule(const char *id)
{
	/* a prefix (`numa-`, `k8s`) names the rules that start with it */
	size_t n = strlen(id), found = 0;
	char list[512] = "";
	for (size_t i = 0; n && i < R__COUNT; i++)
		if (strncmp(rule_table[i].id, id, n) == 0 && found++ < 8)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", found > 1 ? ", " : "", rule_table[i].id);
	if (found) {
		fprintf(stderr, "dslc: no rule '%s'; the rules that start with it: %s%s (see `dslc rules`)\n", id, list,
			found > 8 ? ", ..." : "");
		return EXIT_USAGE;
	}
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
			return cli_no_such_rule(id);
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
int cli_usage_error(const char *fmt, const char *arg)
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
int cli_check_command(const cli *c)
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
			return cli_usage_error("%s", msg);
		}
	/* --format: one of the choices the command's row lists */
	const cli_option *f = c->format ? cli_command_option(cmd, "--format") : NULL;
	if (f && f->kind == ARG_CHOICE && f->arg) {
		size_t n = strlen(c->format);
		const char *p = f->arg;
		bool ok = false;
		while (!ok && *p) {
			size_t len = strcspn(p, "|");
			ok = len == n && strncmp(p, c->format, n) == 0;
			p += len + (p[len] == '|');
		}
		if (!ok) {
			char msg[256];
			snprintf(msg, sizeof(msg), "%s --format takes %s, not '%.100s'", cmd->name, f->arg, c->format);
			return cli_usage_error("%s", msg);
		}
	}
	return -1;
}

int cli_parse(int argc, char **argv, cli *c)
{
	memset(c, 0, sizeof(*c));
	c->fail_on = SEV_ERROR;
	c->max_findings = 100;
	c->max_values = 10;
	if (!(c->opts = malloc((size_t)argc * sizeof(*c->opts))))
		return cli_usage_error("%s", "out of memory");
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1])
			c->opts[c->nopts++] = a;
		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs a directory", a);
			c->out = argv[i];
		} else if (strcmp(a, "--format") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs text or json", a);
			report_format f;
			if (!report_format_parse(argv[i], &f) && strcmp(argv[i], "markdown") != 0 && strcmp(argv[i], "script") != 0 &&
			    strcmp(argv[i], "svg") != 0)
				return cli_usage_error("--format takes text, json, sarif, github, gitlab, junit, checkstyle, concise or (plan) markdown or script, or (show, plan) svg, not '%s'", argv[i]);
			c->format = argv[i];
		} else if (strcmp(a, "--against") == 0 || strcmp(a, "--against-source") == 0) {
			if (++i == argc)
				return cli_usage_error(strcmp(a, "--against") == 0 ? "%s needs an output directory" : "%s needs a description", a);
			*(strcmp(a, "--against") == 0 ? &c->against : &c->against_source) = argv[i];
		} else if (strcmp(a, "--picture") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs a file to write the SVG to", a);
			c->picture = argv[i];
		} else if (strcmp(a, "--max-wave") == 0 || strcmp(a, "--unsafe-wave") == 0) {
			long long v;
			if (++i == argc)
				return cli_usage_error("%s needs a number of nodes", a);
			if (!number_arg(argv[i], 1, 1000000, &v))
				return cli_usage_error("--max-wave and --unsafe-wave take a number of nodes (1 or more), not '%s'", argv[i]);
			*(strcmp(a, "--max-wave") == 0 ? &c->max_wave : &c->unsafe_wave) = (int)v;
		} else if (strcmp(a, "--rebuild-timeout") == 0) {
			uint64_t ms;
			const char *why;
			if (++i == argc)
				return cli_usage_error("%s needs a duration (90min, 6h)", a);
			if (!val_duration(argv[i], &ms, &why) || ms < 1000 || ms > 30ull * 86400 * 1000)
				return cli_usage_error("--rebuild-timeout takes a duration from 1s to 720h (90min, 6h), not '%s'", argv[i]);
			c->rebuild_timeout = (long long)(ms / 1000);
		} else if (strcmp(a, "--max-values") == 0) {
			long long v;
			if (++i == argc)
				return cli_usage_error("%s needs a number", a);
			if (!number_arg(argv[i], 0, 1000000, &v))
				return cli_usage_error("--max-values takes a number (0 = all), not '%s'", argv[i]);
			c->max_values = (unsigned)v;
		} else if (strcmp(a, "--disable") == 0 || strcmp(a, "--enable") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs rule ids", a);
			int rc = toggle_rules(c, argv[i], strcmp(a, "--disable") == 0);
			if (rc >= 0)
				return rc;
		} else if (strcmp(a, "--topology") == 0 || strcmp(a, "--release") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs a value", a);
			if (strcmp(a, "--release") == 0 && !daos_release_find(argv[i]))
				return cli_usage_error("--release takes a DAOS release such as 2.6 or 2.8, not '%s'", argv[i]);
			*(strcmp(a, "--topology") == 0 ? &c->topology : &c->release) = argv[i];
		} else if (strcmp(a, "--node") == 0 || strcmp(a, "--root") == 0 || strcmp(a, "--collect") == 0 ||
			   strcmp(a, "--snapshots") == 0 || strcmp(a, "--manifest") == 0) {
			if (++i == argc)
				return cli_usage_error(strcmp(a, "--node") == 0 ? "%s needs a host name" : "%s needs a directory", a);
			*(a[2] == 'n' ? &c->node : a[2] == 'r' ? &c->root : a[2] == 'c' ? &c->collect : a[2] == 'm' ? &c->manifest : &c->snapshots) = argv[i];
		} else if (strcmp(a, "--host") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs host names", a);
			c->hosts = argv[i];
		} else if (strcmp(a, "--mem-gib") == 0) {
			long long v;
			if (++i == argc)
				return cli_usage_error("%s needs a number of GiB", a);
			if (!number_arg(argv[i], 1, 1048576, &v))
				return cli_usage_error("--mem-gib takes the node's memory in GiB (1 to 1048576), not '%s'", argv[i]);
			c->mem_gib = v;
		} else if (strcmp(a, "--hugepage-size") == 0) {
			const char *why;
			if (++i == argc)
				return cli_usage_error("%s needs 2MiB or 1GiB", a);
			if (!val_size(argv[i], &c->hugepage_size, &why) || (c->hugepage_size != 2 * MiB && c->hugepage_size != GiB))
				return cli_usage_error("--hugepage-size takes 2MiB or 1GiB, not '%s'", argv[i]);
		} else if (strcmp(a, "--color") == 0) {
			static const char *const modes[] = {"auto", "always", "never", NULL}; /* diag_colour_mode's order */
			if (++i == argc)
				return cli_usage_error("%s needs auto, always or never", a);
			int k = choice_index(argv[i], modes);
			if (k < 0)
				return cli_usage_error("--color takes auto, always or never, not '%s'", argv[i]);
			diag_set_colour((diag_colour_mode)k);
		} else if (strcmp(a, "--config") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs the lint settings file", a);
			c->config = argv[i];
		} else if (strcmp(a, "--stdin-filename") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs the path the description on stdin stands for", a);
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
		} else if (strcmp(a, "--exit-zero") == 0) {
			c->exit_zero = true;
		} else if (strcmp(a, "--strict-baseline") == 0) {
			c->strict_baseline = true;
		} else if (strcmp(a, "--show-settings") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs the file whose settings to show", a);
			c->show_settings = argv[i];
		} else if (strcmp(a, "--baseline") == 0 || strcmp(a, "--write-baseline") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs the baseline file", a);
			*(a[2] == 'b' ? &c->baseline : &c->write_baseline) = argv[i];
		} else if (strcmp(a, "--fail-on") == 0) {
			if (++i == argc)
				return cli_usage_error("%s needs error, warning or note", a);
			if (!severity_parse(argv[i], &c->fail_on))
				return cli_usage_error("--fail-on takes error, warning or note, not '%s'", argv[i]);
			c->fail_on_given = true;
		} else if (strcmp(a, "--max-findings") == 0) {
			long long v;
			if (++i == argc)
				return cli_usage_error("%s needs a number", a);
			if (!number_arg(argv[i], 0, LLONG_MAX, &v))
				return cli_usage_error("--max-findings takes a number, not '%s'", argv[i]);
			c->max_findings = (unsigned)v;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			c->help = true;
		} else if (strcmp(a, "--version") == 0) {
			c->cmd = "version";
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("unknown option '%s'", a);
		} else if (!c->cmd) {
			c->cmd = a;
			usage_cmd = cli_command_find(a);
		} else {
			if ((strcmp(c->cmd, "lint") && strcmp(c->cmd, "fmt") && strcmp(c->cmd, "import") && c->file && c->node) ||
			    (strcmp(c->cmd, "doctor") == 0 && c->file))
				return cli_usage_error("unexpected argument '%s'", a);
			if (!c->files && !(c->files = malloc((size_t)argc * sizeof(*c->files))))
				return cli_usage_error("%s", "out of memory");
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
		return cli_usage_error("%s", "no command given");
	return cli_check_command(c);
}

/* `--name=value` as `--name value` for an option that takes a value
 * (--color=never, as GNU tools spell it); argv's strings are cut at '='. */
char ** cli_split_equals(int argc, char **argv, int *nargc)
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
