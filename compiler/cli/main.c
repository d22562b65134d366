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
#include "compiler/lint/yaml_lint.h"
#include "compiler/model/kw.h"
#include "compiler/place/place.h"
#include "compiler/plan/plan.h"
#include "compiler/tree/disruption.h"
#include "compiler/tree/output.h"
#include "compiler/tree/render.h"
#include "compiler/tree/selfcheck.h"
#include "lint_files.h"
#include "fmt_files.h"
#include "import_cmd.h"
#include "report.h"
#include "show.h"
#include "targets/targets.h"

#ifndef DSLC_VERSION
#define DSLC_VERSION "0.1.0"
#endif

enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };

static const char usage[] =
	"usage: dslc <command> [options]\n"
	"\n"
	"commands:\n"
	"  build FILE -o DIR [--check] [--strict]  compile FILE into DIR/nodes/<host>/... and DIR/manifest.json;\n"
	"                                --check compares with DIR instead of writing (exit 1 when stale);\n"
	"                                --strict reads every file instead of trusting DIR.dslc-cache\n"
	"  lint FILE... [--fix]          report findings only, of every file (- : stdin); an included file\n"
	"                                is linted through the descriptions that include it; --fix applies\n"
	"                                the exact edits findings carry (SARIF/JSON `fixes`), then lints again\n"
	"  lint daos_server.yml [--topology node.xml] [--release 2.6|2.8] [--mem-gib N] [--hugepage-size 2MiB|1GiB]\n"
	"                                lint a hand-written DAOS server or agent config\n"
	"  fmt [--check] FILE...         rewrite descriptions in the canonical layout (- : stdin to stdout);\n"
	"                                --check names the files that would change and exits 1\n"
	"  import FILE.yml... [--host HOSTLIST] [--topology node.xml] [--release 2.6|2.8]\n"
	"                                write a description of the servers whose daos_server.yml files\n"
	"                                are given (one per node; the host from nodes/<host>/etc/daos/...\n"
	"                                or --host, one name per file) to stdout, and lint it\n"
	"  show FILE NODE [--format json] print a node's plan: per NUMA node its CPUs, cores for the OS,\n"
	"                                the engine and Kubernetes, NICs, drives and memory budget\n"
	"  plan FILE --against DIR | --against-source OLD.dsl [--format text|markdown|json|script] [--max-values N]\n"
	"       [--max-wave N] [--unsafe-wave N] [--rebuild-timeout DURATION]\n"
	"                                what the change does to each node, grouped, with its disruption\n"
	"                                (exit 0 none, 3 changes, 4 data loss or not applicable)\n"
	"  disruptions                   the disruption table (markdown)\n"
	"  explain ID                    print a rule's explanation\n"
	"  rules [--markdown|--format json]  list every rule\n"
	"  keywords [--markdown]         list every keyword (--markdown: the reference in SPEC.md)\n"
	"  version                       print the version\n"
	"\n"
	"options:\n"
	"  --format text|json|sarif|github  findings format of lint (show: text or json)\n"
	"  --fail-on error|warning|note  lowest severity that fails (default: error)\n"
	"  --disable ID[,ID] / --enable ID[,ID]  switch rules off or back on (in order)\n"
	"  --max-findings N              print at most N findings (default 100, 0 = all)\n"
	"\n"
	"exit status: 0 clean, 1 findings (or a stale tree with --check), 2 usage or I/O error\n";

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
} cli;

/* --disable a,b / --enable a: every id must be a rule. */
static int toggle_rules(cli *c, const char *list, bool disable)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *id = strtok(buf, ","); id; id = strtok(NULL, ",")) {
		const rule_info *r = rule_find(id);
		if (!r) {
			const char *names[R__COUNT];
			for (int i = 0; i < R__COUNT; i++)
				names[i] = rule_table[i].id;
			const char *sug = kw_suggest(id, names, R__COUNT);
			fprintf(stderr, "dslc: no rule '%s'%s%s%s (see `dslc rules`)\n", id, sug ? "; did you mean '" : "",
				sug ? sug : "", sug ? "'?" : "");
			return EXIT_USAGE;
		}
		if (disable && !rule_silenceable(r)) {
			fprintf(stderr, "dslc: %s cannot be disabled: %s\n", id,
				r->rule == R_UNSAFE_VALUE ? "it keeps unsafe bytes out of the output"
				: r->rule == R_PLAN_INCOMPLETE ? "a silenced finding must not change what is built"
				: r->rule == R_INTERNAL_CONSISTENCY ? "it keeps configs DAOS refuses out of the output"
							       : "the input could not be read");
			return EXIT_USAGE;
		}
		c->disabled[r->rule] = disable;
	}
	return -1;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "dslc: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage);
	return EXIT_USAGE;
}

/* A decimal option value within [min, max]: the whole word, as strtoll reads it. */
static bool number_arg(const char *s, long long min, long long max, long long *v)
{
	char *end;
	*v = strtoll(s, &end, 10);
	return !*end && *v >= min && *v <= max;
}

static int parse_args(int argc, char **argv, cli *c)
{
	memset(c, 0, sizeof(*c));
	c->fail_on = SEV_ERROR;
	c->max_findings = 100;
	c->max_values = 10;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
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
		} else if (strcmp(a, "--check") == 0) {
			c->check = true;
		} else if (strcmp(a, "--strict") == 0) {
			c->strict = true;
		} else if (strcmp(a, "--markdown") == 0) {
			c->markdown = true;
		} else if (strcmp(a, "--fix") == 0) {
			c->fix = true;
		} else if (strcmp(a, "--fail-on") == 0) {
			if (++i == argc)
				return usage_error("%s needs error, warning or note", a);
			if (strcmp(argv[i], "error") == 0)
				c->fail_on = SEV_ERROR;
			else if (strcmp(argv[i], "warning") == 0)
				c->fail_on = SEV_WARNING;
			else if (strcmp(argv[i], "note") == 0)
				c->fail_on = SEV_NOTE;
			else
				return usage_error("--fail-on takes error, warning or note, not '%s'", argv[i]);
		} else if (strcmp(a, "--max-findings") == 0) {
			long long v;
			if (++i == argc)
				return usage_error("%s needs a number", a);
			if (!number_arg(argv[i], 0, LLONG_MAX, &v))
				return usage_error("--max-findings takes a number, not '%s'", argv[i]);
			c->max_findings = (unsigned)v;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			c->cmd = "help";
		} else if (strcmp(a, "--version") == 0) {
			c->cmd = "version";
		} else if (a[0] == '-' && a[1]) {
			return usage_error("unknown option '%s'", a);
		} else if (!c->cmd) {
			c->cmd = a;
		} else {
			if (strcmp(c->cmd, "lint") && strcmp(c->cmd, "fmt") && strcmp(c->cmd, "import") && c->file && c->node)
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
	if (!c->cmd)
		return usage_error("%s", "no command given");
	return -1;
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
		fprintf(stderr, "dslc: no input file\n%s", usage);
		return EXIT_USAGE; /* nothing to free: compile_file was not called */
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
	if (strcmp(path, "-") == 0) /* read as every source is: bounded, no NUL */
		return compile_file_as(comp, "/dev/stdin", "<stdin>", c->disabled);
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

static int cmd_lint(const cli *c)
{
	report_format fmt = REPORT_TEXT;
	if (c->format && !report_format_parse(c->format, &fmt))
		return usage_error("lint --format takes text, json, sarif or github, not '%s'", c->format);
	if (!c->nfiles) {
		fprintf(stderr, "dslc: no input file\n%s", usage);
		return EXIT_USAGE;
	}
	size_t nstdin = 0, ndsl = 0;
	for (size_t i = 0; i < c->nfiles; i++) {
		bool in = strcmp(c->files[i], "-") == 0;
		nstdin += in;
		ndsl += in || !yaml_lint_is_yaml(c->files[i]);
	}
	if (nstdin > 1 || (nstdin && c->fix))
		return usage_error("%s", nstdin > 1 ? "stdin ('-') can be read once" : "--fix rewrites files, not stdin ('-')");
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
	lint_choice ch = lint_files_choose(&a, c->files, comps, c->nfiles, stderr);
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
	if (report_print_all(dcs, n, fmt, stdout, c->max_findings, "dslc " DSLC_VERSION))
		rc = EXIT_USAGE;
	fflush(stdout);
	bool failed = false;
	for (size_t i = 0; i < n; i++) {
		if (fmt == REPORT_TEXT)
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

static int cmd_build(const cli *c)
{
	if (!c->out) {
		fprintf(stderr, "dslc: build needs -o DIR\n%s", usage);
		return EXIT_USAGE;
	}
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
	print_summary(&comp, stderr, NULL);
	if (diag_count(&comp.dc, SEV_ERROR)) {
		fprintf(stderr, "dslc: nothing written: fix the errors above\n");
		compile_free(&comp);
		return EXIT_FINDINGS;
	}
	output_stats st;
	output_opts opts = {c->check, c->strict, "dslc " DSLC_VERSION, memo};
	rc = output_build(&comp.m, c->out, &opts, &st);
	if (rc == 0 && !c->check) {
		fprintf(stderr, "dslc: %zu files for %zu nodes in %s: %zu written, %zu unchanged, %zu removed\n", st.files,
			comp.m.nnodes, c->out, st.written, st.unchanged, st.removed);
		describe_placement(&comp.m, stderr);
	} else if (c->check) {
		if (rc == 0)
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

static int cmd_plan(const cli *c)
{
	if (!c->file || (!c->against == !c->against_source)) {
		fprintf(stderr, "dslc: plan needs FILE and one of --against DIR or --against-source OLD.dsl\n%s", usage);
		return EXIT_USAGE;
	}
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
	if (!c->node) {
		fprintf(stderr, "dslc: show needs a node name: dslc show FILE NODE\n");
		return EXIT_USAGE;
	}
	compilation comp;
	int rc = compile_or_fail(&comp, c->file, c->disabled);
	if (rc >= 0)
		return rc;
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

static void print_rule(const rule_info *r, bool markdown)
{
	if (markdown) {
		printf("### `%s`\n\n", r->id);
		printf("- severity: %s\n- category: %s\n- summary: %s\n\n", severity_name(r->severity), r->category, r->summary);
		printf("%s\n\nFix: %s\n\n", r->explanation, r->fix);
		return;
	}
	printf("%s (%s, %s): %s\n\n%s\n\nfix: %s\n", r->id, severity_name(r->severity), r->category, r->summary,
	       r->explanation, r->fix);
}

static int cmd_explain(const cli *c)
{
	if (!c->file) {
		fprintf(stderr, "dslc: explain needs a rule id (see `dslc rules`)\n");
		return EXIT_USAGE;
	}
	const rule_info *r = rule_find(c->file);
	if (!r) {
		const char *names[R__COUNT];
		for (int i = 0; i < R__COUNT; i++)
			names[i] = rule_table[i].id;
		const char *sug = kw_suggest(c->file, names, R__COUNT);
		fprintf(stderr, "dslc: no rule '%s'%s%s%s (see `dslc rules`)\n", c->file, sug ? "; did you mean '" : "",
			sug ? sug : "", sug ? "'?" : "");
		return EXIT_USAGE;
	}
	print_rule(r, false);
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
			print_rule(r, true);
		else
			printf("%-26s %-8s %-10s %s\n", r->id, severity_name(r->severity), r->category, r->summary);
	}
	return EXIT_CLEAN;
}

static void print_table(const kw_table *t, const char *title)
{
	printf("### %s\n\n| keyword | syntax | meaning |\n|---|---|---|\n", title);
	for (size_t i = 0; i < t->n; i++)
		printf("| `%s` | `%s` | %s |\n", t->kws[i].name, t->kws[i].syntax, t->kws[i].doc);
	printf("\n");
}

static int cmd_keywords(bool markdown)
{
	if (!markdown) {
		const kw_table *all[] = {&kw_top, &kw_cluster, &kw_fabric, &kw_hardware, &kw_numa, &kw_profile,
			&kw_engine, &kw_kernel, &kw_kubelet, &kw_network, &kw_kube, &kw_bmc, &kw_node_addr, &kw_pool, &kw_container, &kw_mount};
		for (size_t t = 0; t < sizeof(all) / sizeof(all[0]); t++)
			for (size_t i = 0; i < all[t]->n; i++)
				printf("%s\t%s\n", all[t]->block, all[t]->kws[i].name);
		return EXIT_CLEAN;
	}
	print_table(&kw_top, "Top level");
	print_table(&kw_cluster, "`cluster` block");
	print_table(&kw_fabric, "`fabric` block (in `cluster`)");
	print_table(&kw_hardware, "`hardware` block");
	print_table(&kw_numa, "`numa` block (in `hardware`)");
	print_table(&kw_profile, "`profile` block (also in `nodes` and `node` blocks)");
	print_table(&kw_engine, "`engine` block (in `profile`, `nodes` and `node` blocks)");
	print_table(&kw_kernel, "`kernel` block (in `profile`, `nodes` and `node` blocks)");
	print_table(&kw_kubelet, "`kubelet` block (in `profile`, `nodes` and `node` blocks)");
	print_table(&kw_network, "`network` block (in `profile`, `nodes` and `node` blocks)");
	print_table(&kw_kube, "`kubernetes` block (in `cluster`)");
	print_table(&kw_bmc, "`bmc redfish` block (in `hardware`)");
	print_table(&kw_node_addr, "Per-node addresses (`nodes` and `node` blocks)");
	print_table(&kw_pool, "`pool` block");
	print_table(&kw_container, "`container` block");
	print_table(&kw_mount, "`mount` block");
	printf("### Artifacts\n\n| target | path | content |\n|---|---|---|\n");
	for (size_t i = 0; i < target_count; i++)
		printf("| `%s` | `out/nodes/<host>/%s` | %s |\n", target_table[i].name, target_table[i].path, target_table[i].doc);
	for (size_t i = 0; i < cluster_target_count; i++)
		printf("| `%s` | `out/cluster/%s` | %s |\n", cluster_target_table[i].name, cluster_target_table[i].path,
		       cluster_target_table[i].doc);
	printf("| `manifest` | `out/manifest.json` | Every file with its node, target, size and sha256 (schemas/manifest.schema.json). |\n\n");
	return EXIT_CLEAN;
}

/* The command, once its arguments are read. */
static int run(const cli *c)
{
	if (strcmp(c->cmd, "build") == 0)
		return cmd_build(c);
	if (strcmp(c->cmd, "lint") == 0)
		return cmd_lint(c);
	if (strcmp(c->cmd, "fmt") == 0) {
		if (!c->nfiles)
			return usage_error("%s", "fmt needs files (- for stdin)");
		return fmt_files((const char *const *)c->files, c->nfiles, c->check);
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
	if (strcmp(c->cmd, "plan") == 0)
		return cmd_plan(c);
	if (strcmp(c->cmd, "disruptions") == 0) {
		disruption_print_markdown(stdout);
		return EXIT_CLEAN;
	}
	if (strcmp(c->cmd, "explain") == 0)
		return cmd_explain(c);
	if (strcmp(c->cmd, "rules") == 0)
		return cmd_rules(c);
	if (strcmp(c->cmd, "keywords") == 0)
		return cmd_keywords(c->markdown);
	if (strcmp(c->cmd, "version") == 0) {
		printf("dslc %s\n", DSLC_VERSION);
		return EXIT_CLEAN;
	}
	if (strcmp(c->cmd, "help") == 0) {
		fputs(usage, stdout);
		return EXIT_CLEAN;
	}
	return usage_error("unknown command '%s'", c->cmd);
}

int main(int argc, char **argv)
{
	cli c;
	int rc = parse_args(argc, argv, &c);
	if (rc < 0)
		rc = run(&c);
	free(c.files);
	return rc;
}
