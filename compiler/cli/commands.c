/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* commands.c - the command table (see commands.h) and the help printed from it. */
#include "commands.h"

#include <string.h>

#include "report.h"

/* ---- options ------------------------------------------------------------ */

#define OPT(var, ...) static const cli_option var = {__VA_ARGS__}

const cli_option cli_opt_help = {"--help", "-h", ARG_NONE, NULL, NULL, "print this command's usage and exit"};
const cli_option cli_opt_version = {"--version", NULL, ARG_NONE, NULL, NULL, "print the version and exit"};

OPT(opt_output, "--output", "-o", ARG_DIR, "DIR", NULL,
    "the output tree: DIR/nodes/<host>/... and DIR/manifest.json (required)");
OPT(opt_build_check, "--check", NULL, ARG_NONE, NULL, NULL,
    "compare with DIR instead of writing; exit 1 when the tree is stale");
OPT(opt_strict, "--strict", NULL, ARG_NONE, NULL, NULL,
    "read every file of DIR instead of trusting DIR.dslc-cache");
OPT(opt_fail_on, "--fail-on", NULL, ARG_CHOICE, "error|warning|note", "error", "the lowest severity that makes the exit status 1");
OPT(opt_disable, "--disable", NULL, ARG_RULES, "ID[,ID]", NULL,
    "switch rules off (a report is silenced; what is built does not change); with --enable, applied in order");
OPT(opt_enable, "--enable", NULL, ARG_RULES, "ID[,ID]", NULL, "switch rules back on");
OPT(opt_max_findings, "--max-findings", NULL, ARG_WORD, "N", "100", "print at most N findings as text (0: all)");
OPT(opt_lint_format, "--format", NULL, ARG_CHOICE, REPORT_FORMAT_CHOICES, "text",
    "the findings' format: text, JSON (schemas/findings.schema.json), SARIF 2.1.0, GitHub annotations, "
    "GitLab Code Quality, JUnit XML, checkstyle XML, one line each (file:line:col: severity[rule]: message)");
OPT(opt_baseline, "--baseline", NULL, ARG_FILE, "FILE", "the settings' baseline, else none",
    "report only the findings FILE does not record (new ones); those it records are not shown or counted");
OPT(opt_write_baseline, "--write-baseline", NULL, ARG_FILE, "FILE", NULL,
    "record every finding in FILE (whole or not at all) instead of reporting them; exit 0");
OPT(opt_strict_baseline, "--strict-baseline", NULL, ARG_NONE, NULL, NULL,
    "with a baseline: an entry no finding of the files linted matches any more (fixed, or its line edited) fails (exit 1)");
OPT(opt_show_settings, "--show-settings", NULL, ARG_FILE, "FILE", NULL,
    "print what the lint settings make of FILE's findings (fail_on, baseline, each rule switched or re-ranked) and from which line; lint nothing");
OPT(opt_exit_zero, "--exit-zero", NULL, ARG_NONE, NULL, NULL,
    "exit 0 whatever the findings (a report-only CI step); 2 still says a file could not be read");
OPT(opt_fix, "--fix", NULL, ARG_NONE, NULL, NULL,
    "apply the exact edits findings carry (SARIF/JSON `fixes`) in place, then lint again");
OPT(opt_topology, "--topology", NULL, ARG_FILE, "node.xml", NULL,
    "the node's `lstopo --of xml` export, for hand-written daos_server.yml files");
OPT(opt_release, "--release", NULL, ARG_CHOICE, "2.6|2.8", "2.8 when the file has mgmt_svc_replicas, else 2.6",
    "the DAOS release the YAML files are for (any release `dslc` knows, such as 2.6.5-rc1)");
OPT(opt_mem_gib, "--mem-gib", NULL, ARG_WORD, "N", "the topology's, else unknown",
    "the node's memory in GiB, for hand-written YAML");
OPT(opt_node, "--node", NULL, ARG_NODE, "HOST", NULL, "the node this machine is (with --snapshots: check only it)");
OPT(opt_root, "--root", NULL, ARG_DIR, "DIR", "/", "read the node's files under DIR: a mounted image, a chroot or a snapshot");
OPT(opt_doctor_topology, "--topology", NULL, ARG_FILE, "X.xml", "the running machine, through hwloc",
    "read the machine from an `lstopo --of xml` export");
OPT(opt_doctor_strict, "--strict", NULL, ARG_NONE, NULL, NULL, "a source absent under the root is an error, not a note");
OPT(opt_collect, "--collect", NULL, ARG_DIR, "DIR", NULL,
    "also write what was read (hwloc's export, cmdline, meminfo, the /sys values, the node's files) to DIR, a new directory");
OPT(opt_snapshots, "--snapshots", NULL, ARG_DIR, "DIR", NULL, "check every node's collected snapshot DIR/HOST at once");
OPT(opt_manifest, "--manifest", NULL, ARG_DIR, "DIR", NULL,
    "check the node's installed files (sha256, mode) and kernel command line against the built tree DIR's manifest.json, "
    "without the description (a rollout's DSLC_VERIFY)");
OPT(opt_hugepage, "--hugepage-size", NULL, ARG_CHOICE, "2MiB|1GiB", "the topology's, else 2MiB",
    "the node's hugepage size, for hand-written YAML");
OPT(opt_fmt_check, "--check", NULL, ARG_NONE, NULL, NULL, "name the files that would change and exit 1; write nothing");
OPT(opt_host, "--host", NULL, ARG_WORD, "HOSTLIST", NULL,
    "one host name per file, in order (default: <host> of nodes/<host>/etc/daos/...)");
OPT(opt_import_format, "--format", NULL, ARG_CHOICE, REPORT_FORMAT_CHOICES, "text", "the findings' format (stderr)");
OPT(opt_show_format, "--format", NULL, ARG_CHOICE, "text|json|svg", "text", "the plan's format (svg: a picture of the node)");
OPT(opt_against, "--against", NULL, ARG_DIR, "DIR", NULL, "the tree built before (the fleet's state); or --against-source");
OPT(opt_against_source, "--against-source", NULL, ARG_FILE, "OLD.dsl", NULL, "the description before the change");
OPT(opt_plan_format, "--format", NULL, ARG_CHOICE, "text|markdown|json|script|svg", "text",
    "the plan's format; script: the waves as a POSIX sh rollout that stops at the first failed gate; svg: the waves as a picture");
OPT(opt_picture, "--picture", NULL, ARG_FILE, "FILE.svg", NULL,
    "also write the waves' picture to FILE.svg (whole or not at all); markdown links it");
OPT(opt_max_values, "--max-values", NULL, ARG_WORD, "N", "10", "values shown per change (0: all)");
OPT(opt_max_wave, "--max-wave", NULL, ARG_WORD, "N", "the data's limits", "at most N nodes per wave");
OPT(opt_unsafe_wave, "--unsafe-wave", NULL, ARG_WORD, "N", NULL,
    "N nodes per wave even above the data's limits; the plan says what that risks");
OPT(opt_rebuild_timeout, "--rebuild-timeout", NULL, ARG_WORD, "DURATION",
    "an hour plus a wave's share of the largest pool at 1 GiB/s", "the script's wait for a rebuild, 1s to 720h");
OPT(opt_rules_format, "--format", NULL, ARG_CHOICE, "json", NULL, "every rule as JSON");
OPT(opt_markdown, "--markdown", NULL, ARG_NONE, NULL, NULL, "the reference as in SPEC.md");
OPT(opt_keywords_format, "--format", NULL, ARG_CHOICE, "json", NULL, "every keyword as JSON: block, keyword, syntax, meaning");
OPT(opt_color, "--color", NULL, ARG_CHOICE, "auto|always|never", "auto",
    "colour the text: auto colours a terminal unless NO_COLOR is set (FORCE_COLOR: also when not a terminal)");
OPT(opt_stdio, "--stdio", NULL, ARG_NONE, NULL, NULL,
    "speak the protocol over standard input and output (the only transport; editors' clients pass it)");
OPT(opt_quiet, "--quiet", "-q", ARG_NONE, NULL, NULL, "print the findings only: no summary, no notes on what was done");
OPT(opt_fmt_diff, "--diff", NULL, ARG_NONE, NULL, NULL,
    "print what would change as a unified diff and write nothing (with --check: exit 1 when a file would change)");
OPT(opt_lint_diff, "--diff", NULL, ARG_NONE, NULL, NULL,
    "with --fix: print the first pass's fixes as a unified diff instead of writing them; exit 1 when a file would change");
OPT(opt_config, "--config", NULL, ARG_FILE, "PATH", ".dslc-lint from here up to the repository's top",
    "the lint settings file: roots, fail_on, disabled rules with their reasons");
OPT(opt_stdin_filename, "--stdin-filename", NULL, ARG_FILE, "PATH", NULL,
    "the path a description read from stdin (-) stands for: findings name it, its includes resolve from its directory");

/* ---- commands ----------------------------------------------------------- */

#define EXIT_USAGE_ROW {2, "usage error, or a file that cannot be read or written"}
#define END_EXITS {-1, NULL}

static const cli_option *const build_opts[] = {&opt_output, &opt_build_check, &opt_strict, &opt_fail_on, &opt_disable,
					       &opt_enable, &opt_max_findings, &opt_config, &opt_quiet, &opt_color, NULL};
static const cli_exit build_exits[] = {{0, "built (with --check: the tree is up to date)"},
				       {1, "errors, and nothing written; findings at or above --fail-on; with --check: the tree is stale"},
				       EXIT_USAGE_ROW, END_EXITS};

static const cli_option *const lint_opts[] = {&opt_lint_format, &opt_fix, &opt_lint_diff, &opt_fail_on, &opt_exit_zero, &opt_baseline,
					      &opt_write_baseline, &opt_strict_baseline, &opt_show_settings, &opt_disable,
					      &opt_enable, &opt_max_findings, &opt_config, &opt_quiet, &opt_color, &opt_stdin_filename,
					      &opt_topology, &opt_release, &opt_mem_gib, &opt_hugepage, NULL};
static const cli_exit lint_exits[] = {{0, "no finding at or above --fail-on (with --exit-zero: whatever was found)"},
				      {1, "findings at or above --fail-on (new ones, with a baseline); with --strict-baseline, a stale entry"},
				      {2, "usage error, a file that cannot be read, or a fix refused"}, END_EXITS};

static const cli_option *const fmt_opts[] = {&opt_fmt_check, &opt_fmt_diff, &opt_quiet, &opt_color, &opt_stdin_filename, NULL};
static const cli_exit fmt_exits[] = {{0, "formatted, or already in the canonical layout"},
				     {1, "a file does not parse (left as it is); with --check: a file would change"},
				     EXIT_USAGE_ROW, END_EXITS};

static const cli_option *const import_opts_[] = {&opt_host, &opt_topology, &opt_release, &opt_import_format,
						 &opt_max_findings, &opt_color, NULL};
static const cli_exit import_exits[] = {{0, "the description is on stdout (its findings on stderr)"},
					{1, "nothing imported: a file is refused, at its line"}, EXIT_USAGE_ROW, END_EXITS};

static const cli_option *const lsp_opts[] = {&opt_stdio, NULL};
static const cli_exit lsp_exits[] = {{0, "the client sent shutdown, then exit"},
				     {1, "exit without shutdown, or the input ended"}, EXIT_USAGE_ROW, END_EXITS};

static const cli_option *const show_opts[] = {&opt_show_format, &opt_disable, &opt_enable, &opt_max_findings, &opt_color,
					      NULL};
static const cli_exit show_exits[] = {{0, "the plan (or, without NODE, the node names) printed"},
				      {1, "errors in the description, or NODE is not one of its nodes"}, EXIT_USAGE_ROW,
				      END_EXITS};

static const cli_option *const plan_opts_[] = {&opt_against, &opt_against_source, &opt_plan_format, &opt_max_values,
					       &opt_max_wave, &opt_unsafe_wave, &opt_rebuild_timeout, &opt_picture, &opt_color, NULL};
static const cli_exit plan_exits[] = {{0, "no node changes"}, {1, "errors in a description"}, EXIT_USAGE_ROW,
				      {3, "changes, none losing data"},
				      {4, "a change loses data, or cannot be applied to a running system"}, END_EXITS};

static const cli_option *const doctor_opts_[] = {&opt_node, &opt_root, &opt_doctor_topology, &opt_lint_format,
						 &opt_doctor_strict, &opt_collect, &opt_snapshots, &opt_manifest, &opt_disable, &opt_enable,
						 &opt_max_findings, &opt_color, NULL};
static const cli_exit doctor_exits[] = {{0, "the node is what the description says (notes say what was not checked)"},
					{1, "drift: the node contradicts the description"},
					{2, "usage error, a description with errors, or a topology, root or snapshot that cannot be read"},
					END_EXITS};
static const cli_option *const no_opts[] = {NULL};
static const cli_option *const rules_opts[] = {&opt_markdown, &opt_rules_format, NULL};
static const cli_option *const markdown_opts[] = {&opt_markdown, NULL};
static const cli_option *const keywords_opts[] = {&opt_markdown, &opt_keywords_format, NULL};
static const cli_exit plain_exits[] = {{0, "printed"}, {2, "usage error"}, END_EXITS};
static const cli_exit explain_exits[] = {{0, "printed"}, {2, "no such rule (the closest id is proposed)"}, END_EXITS};
const cli_command cli_commands[] = {
	{"build", "FILE -o DIR", "compile a description into every node's files",
	 "Compiles FILE and writes DIR/nodes/<host>/..., laid out like each node's root file system, DIR/cluster/... "
	 "and DIR/manifest.json. The build checks what it writes, replaces the tree atomically, leaves it untouched "
	 "when there are errors, and does not rewrite files whose bytes did not change.",
	 build_opts, {ARG_FILE, ARG_NONE}, NULL, build_exits, "dslc build cluster.dsl -o out\ndslc build cluster.dsl -o out --check"},
	{"lint", "[FILE...]", "report findings, of descriptions and of hand-written DAOS YAML",
	 "Lints each FILE and prints its findings: .dsl descriptions (- reads one from stdin), and daos_server.yml or "
	 "daos_agent.yml files. A file included by another given file, or a fragment found included under its "
	 "directory's parent, is linted through the description that includes it. Without FILE, lints the roots of "
	 "the lint settings (.dslc-lint), whose disabled rules and fail_on apply in every case.",
	 lint_opts, {ARG_FILE, ARG_FILE}, NULL, lint_exits,
	 "dslc lint cluster.dsl\ndslc lint --format sarif cluster.dsl > dslc.sarif\ndslc lint daos_server.yml --topology node.xml\n"
	 "dslc lint          # the roots of .dslc-lint"},
	{"fmt", "FILE...", "rewrite descriptions in the canonical layout",
	 "Rewrites each FILE in place in the canonical layout (- : stdin to stdout). Only what lies between tokens changes.",
	 fmt_opts, {ARG_FILE, ARG_FILE}, NULL, fmt_exits, "dslc fmt --check cluster.dsl"},
	{"import", "FILE.yml...", "write a description of existing servers' daos_server.yml files",
	 "Reads one daos_server.yml per node (the host from nodes/<host>/etc/daos/... or --host) and writes a "
	 "description of them to stdout; the description is built again in memory and every key compared.",
	 import_opts_, {ARG_FILE, ARG_FILE}, NULL, import_exits,
	 "dslc import nodes/*/etc/daos/daos_server.yml > cluster.dsl"},
	{"show", "FILE [NODE]", "print a node's plan per NUMA node",
	 "Prints NODE's plan: per NUMA node its CPUs, the cores of the OS, the engine and Kubernetes, NICs, drives and "
	 "memory budget. `--format svg` draws it: packages, NUMA nodes and cores as lstopo lays them out, each core "
	 "coloured by its role, each engine tied to its NIC and drives, the memory of each NUMA node as a bar, and the "
	 "nodes of the same hardware whose plan differs named. Without NODE, prints the description's node names, one per line.",
	 show_opts, {ARG_FILE, ARG_NODE}, NULL, show_exits, "dslc show cluster.dsl gpu007"},
	{"plan", "FILE --against DIR | --against-source OLD.dsl", "what a change does to each node, and its rollout",
	 "Compares FILE with the tree built before (or with the old description) and prints each node's changes, "
	 "grouped, with their disruption: reformat, restart, reboot. --format script writes the rollout in waves.",
	 plan_opts_, {ARG_FILE, ARG_NONE}, NULL, plan_exits,
	 "dslc plan cluster.dsl --against out\ndslc plan cluster.dsl --against out --format script > rollout.sh"},
	{"doctor", "FILE --node HOST | FILE --snapshots DIR | --manifest DIR --node HOST", "check that a node is what the description says",
	 "On the node (read-only, before DAOS starts): the machine through hwloc (NUMA nodes, cores, SMT, memory, the "
	 "described NICs and the engines' drives with their NUMA node and driver), the running kernel (every parameter "
	 "dslc wrote in /proc/cmdline, the IOMMU, hugepages, sysctl values), the network (MTUs, macvlans, the bond, "
	 "addresses) and every file of the node's built tree (bytes and mode). Each finding points at the description's "
	 "line the node contradicts; what cannot be read is a note. --collect writes what was read, to check later "
	 "off the node; --snapshots checks a fleet's. --manifest DIR checks, without the description, that the node runs "
	 "exactly the built tree DIR: each of its files listed in DIR/manifest.json, installed with that sha256 and mode, "
	 "and each kernel parameter of the installed kernel file on /proc/cmdline.",
	 doctor_opts_, {ARG_FILE, ARG_NONE}, NULL, doctor_exits,
	 "dslc doctor cluster.dsl --node gpu005\ndslc doctor cluster.dsl --node gpu005 --root /mnt/image --topology gpu005.xml\n"
	 "dslc doctor cluster.dsl --node gpu005 --collect /var/tmp/gpu005\ndslc doctor cluster.dsl --snapshots snapshots/\n"
	 "dslc doctor --manifest /var/lib/dslc/tree --node gpu005"},
	{"disruptions", "", "print the disruption table", "Prints what a change to each file does to a node, as markdown.",
	 no_opts, {ARG_NONE, ARG_NONE}, NULL, plain_exits, "dslc disruptions"},
	{"lsp", "", "serve editors: a language server over stdio",
	 "Speaks the Language Server Protocol (3.17) on standard input and output, for one editor: findings as you type "
	 "(a fragment such as hardware.dsl through the descriptions that include it, open buffers read instead of the disk), "
	 "quick fixes from the findings' exact edits, hover (keywords, rules, a node's plan), completion, go to definition, "
	 "the outline and formatting equal to dslc fmt. It reads the .dslc-lint settings of its working directory.",
	 lsp_opts, {ARG_NONE, ARG_NONE}, NULL, lsp_exits, "dslc lsp </dev/null   # the editor starts it: editors/nvim/dslc.lua, editors/vscode"},
	{"explain", "ID", "print a rule's explanation",
	 "Prints the rule's severity, category, summary, explanation with its DAOS source, and fix.", no_opts,
	 {ARG_RULE, ARG_NONE}, NULL, explain_exits, "dslc explain first-core-outside-numa"},
	{"rules", "", "list every rule", "Lists every rule: id, severity, category and summary.", rules_opts,
	 {ARG_NONE, ARG_NONE}, NULL, plain_exits, "dslc rules --format json"},
	{"keywords", "", "list every keyword of the language",
	 "Lists every keyword as `block<TAB>keyword` (JSON: with its syntax and meaning; markdown: SPEC.md's reference).",
	 keywords_opts, {ARG_NONE, ARG_NONE}, NULL, plain_exits, "dslc keywords --markdown"},
	{"completion", "bash|zsh|fish", "print a shell completion script",
	 "Prints the completion script of the shell: commands, options, rule ids after --disable, --enable and explain, "
	 "node names after show FILE.",
	 no_opts, {ARG_CHOICE, ARG_NONE}, "bash|zsh|fish", plain_exits, "dslc completion bash > /etc/bash_completion.d/dslc"},
	{"syntax", "vim|textmate", "print a syntax file for editors",
	 "Prints syntax highlighting for cluster descriptions, from the keyword tables: a Vim syntax file (syntax/dslc.vim) "
	 "or a TextMate grammar (VS Code, GitHub). make install installs both.",
	 no_opts, {ARG_CHOICE, ARG_NONE}, "vim|textmate", plain_exits, "dslc syntax vim > ~/.vim/syntax/dslc.vim"},
	{"manpage", "dslc|dslc-language|dslc-rules", "print a man page (for packagers)",
	 "Prints dslc(1), dslc-language(5) or dslc-rules(7) in man(7) markup; make install installs them.", no_opts,
	 {ARG_CHOICE, ARG_NONE}, "dslc|dslc-language|dslc-rules", plain_exits, "dslc manpage dslc | man -l -"},
	{"version", "", "print the version", "Prints `dslc VERSION`.", no_opts, {ARG_NONE, ARG_NONE}, NULL, plain_exits,
	 "dslc version"},
	{"help", "[COMMAND]", "print the commands, or a command's usage",
	 "Without COMMAND, lists the commands; with one, prints its usage as `dslc COMMAND --help` does.", markdown_opts,
	 {ARG_COMMAND, ARG_NONE}, NULL, plain_exits, "dslc help plan"},
};
const size_t cli_command_count = sizeof(cli_commands) / sizeof(cli_commands[0]);

const cli_env cli_environment[] = {
	{"NO_COLOR", "when set and not empty, findings and plans are printed without colour (unless --color always)"},
	{"FORCE_COLOR", "when set and not empty, findings and plans are coloured even when not printed to a terminal (unless NO_COLOR or --color never)"},
	{"TERM", "colour is used only on a terminal whose TERM is set and not `dumb`"},
	{"SOURCE_DATE_EPOCH", "(`dslc manpage`) the pages' date, in seconds since 1970 (reproducible builds); else today"},
};
const size_t cli_environment_count = sizeof(cli_environment) / sizeof(cli_environment[0]);

const cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < cli_command_count; i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return &cli_commands[i];
	return NULL;
}

const cli_option *cli_command_option(const cli_command *c, const char *arg)
{
	for (const cli_option *const *o = c->options; *o; o++)
		if (strcmp((*o)->name, arg) == 0 || ((*o)->alias && strcmp((*o)->alias, arg) == 0))
			return *o;
	if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
		return &cli_opt_help;
	if (strcmp(arg, "--version") == 0)
		return &cli_opt_version;
	return NULL;
}

bool cli_option_takes_value(const char *name)
{
	for (size_t i = 0; i < cli_command_count; i++)
		for (const cli_option *const *o = cli_commands[i].options; *o; o++)
			if (strcmp((*o)->name, name) == 0)
				return (*o)->kind != ARG_NONE;
	return false;
}

/* ---- help ----------------------------------------------------------------- */

void cli_print_overview(FILE *out)
{
	fprintf(out, "usage: dslc <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < cli_command_count; i++)
		fprintf(out, "  %-13s %s\n", cli_commands[i].name, cli_commands[i].summary);
	fprintf(out, "\nRun `dslc help COMMAND` (or `dslc COMMAND --help`) for a command's options, exit status and example.\n");
}

/* "-o, --output DIR" */
static int option_label(const cli_option *o, char *buf, size_t n)
{
	return snprintf(buf, n, "%s%s%s%s%s", o->alias ? o->alias : "", o->alias ? ", " : "", o->name, o->arg ? " " : "",
			o->arg ? o->arg : "");
}

/* Text wrapped at 80 columns, each line indented by `indent`; the first
 * line starts at column `col`. */
static void print_wrapped(FILE *out, const char *text, int indent, int col)
{
	const char *p = text;
	while (*p) {
		size_t w = strcspn(p, " ");
		if (col > indent && col + 1 + (int)w > 80) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)w, p);
		col += (int)w;
		p += w;
		p += strspn(p, " ");
	}
	fputc('\n', out);
}

void cli_print_command_help(const cli_command *c, FILE *out)
{
	fprintf(out, "usage: dslc %s%s%s%s\n\n", c->name, *c->args ? " " : "", c->args, c->options[0] ? " [options]" : "");
	print_wrapped(out, c->description, 0, 0);
	fprintf(out, "\noptions:\n");
	const cli_option *const help[] = {&cli_opt_help, NULL};
	for (int pass = 0; pass < 2; pass++)
		for (const cli_option *const *o = pass ? help : c->options; *o; o++) {
			char label[96];
			int n = option_label(*o, label, sizeof(label));
			char doc[512];
			snprintf(doc, sizeof(doc), "%s%s%s%s", (*o)->doc, (*o)->def ? " (default: " : "", (*o)->def ? (*o)->def : "",
				 (*o)->def ? ")" : "");
			if (n > 26) {
				fprintf(out, "  %s\n%*s", label, 30, "");
				print_wrapped(out, doc, 30, 30);
			} else {
				fprintf(out, "  %-27s ", label);
				print_wrapped(out, doc, 30, 30);
			}
		}
	fprintf(out, "\nexit status:\n");
	for (const cli_exit *e = c->exits; e->code >= 0; e++) {
		fprintf(out, "  %d  ", e->code);
		print_wrapped(out, e->meaning, 5, 5);
	}
	fprintf(out, "\nexample%s:\n", strchr(c->example, '\n') ? "s" : "");
	for (const char *p = c->example; *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(out, "  %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* A markdown table cell: '|' escaped (GitHub splits cells at it even in code). */
static void md_cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', out);
		fputc(*s, out);
	}
}

void cli_print_markdown(FILE *out)
{
	for (size_t i = 0; i < cli_command_count; i++) {
		const cli_command *c = &cli_commands[i];
		fprintf(out, "#### `dslc %s%s%s`\n\n%s\n\n", c->name, *c->args ? " " : "", c->args, c->description);
		if (c->options[0]) {
			fprintf(out, "| option | meaning | default |\n|---|---|---|\n");
			for (const cli_option *const *o = c->options; *o; o++) {
				char label[96];
				option_label(*o, label, sizeof(label));
				fputs("| `", out);
				md_cell(out, label);
				fputs("` | ", out);
				md_cell(out, (*o)->doc);
				fputs(" | ", out);
				md_cell(out, (*o)->def ? (*o)->def : "");
				fputs(" |\n", out);
			}
			fputc('\n', out);
		}
		fprintf(out, "Exit status:");
		for (const cli_exit *e = c->exits; e->code >= 0; e++)
			fprintf(out, "%s %d %s", e == c->exits ? "" : ";", e->code, e->meaning);
		fprintf(out, ".\n\n```\n%s\n```\n\n", c->example);
	}
}
