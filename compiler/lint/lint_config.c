/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* lint_config.c - see lint_config.h. The file is parsed by the description
 * language's parser; only the reading of its statements is here, one
 * function per keyword of the table below. */
#include "lint_config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/lang/parse.h"

static const keyword lint_kws[] = {
	{"lint", "lint { ... }", "The repository's lint settings: the only statement of `.dslc-lint`.", KW_CUSTOM, 0, 0, 0, NULL, NULL},
	{"roots", "roots <path>...", "The descriptions `dslc lint` lints when it is given no file, relative to `.dslc-lint`'s directory.", KW_CUSTOM, 0, 0, 0, NULL, NULL},
	{"fail_on", "fail_on error|warning|note", "The lowest severity that fails `dslc lint` and `dslc build` (exit 1); `--fail-on` replaces it.", KW_CUSTOM, 0, 0, 0, NULL, NULL},
	{"disable", "disable <rule> \"<reason>\"", "Switches a rule off for the repository, with the reason kept in review; `--enable` switches it back on for a run.", KW_CUSTOM, 0, 0, 0, NULL, NULL},
	{"path", "path \"<glob>\" { disable|enable|severity ... }", "Settings for the files the glob matches (relative to `.dslc-lint`'s directory; `*` within a name, `**` across directories): `disable <rule> \"<reason>\"`, `enable <rule>`, `severity <rule> error|warning|note`, for rules that are warnings or notes; a later section wins, the command line's --disable/--enable come last.", KW_CUSTOM, 0, 0, 0, NULL, NULL},
	{"baseline", "baseline <path>", "The findings `dslc lint` knows already (written by `dslc lint --write-baseline`), relative to `.dslc-lint`'s directory: only new ones are reported; `--baseline` replaces it.", KW_CUSTOM, 0, 0, 0, NULL, NULL},
};
const kw_table kw_lint = KW_TABLE("lint", lint_kws);

enum { KW_LINT, KW_ROOTS, KW_FAIL_ON, KW_DISABLE, KW_PATH, KW_BASELINE };

/* Whether the user may take settings from a file or directory that st
 * describes: the user's own, root's (a directory like /tmp, /home), or the
 * owner's of the working directory, who writes what is linted anyway (a CI
 * job as root in a checkout of the runner's user). */
static bool trusted_owner(const struct stat *st, uid_t workdir_owner)
{
	return st->st_uid == geteuid() || st->st_uid == 0 || st->st_uid == workdir_owner;
}

static bool entry_stat(const char *dir, const char *name, struct stat *st)
{
	char path[PATH_MAX + 16]; /* a getcwd() path and a short name */
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	return n > 0 && (size_t)n < sizeof(path) && lstat(path, st) == 0;
}

const char *lint_config_find(arena *a, const char **untrusted)
{
	char cwd[PATH_MAX];
	struct stat st;
	*untrusted = NULL;
	if (!getcwd(cwd, sizeof(cwd)) || stat(cwd, &st) != 0)
		return NULL;
	uid_t owner = st.st_uid;
	/* shown relative to the working directory: "", "../", "../../" ...
	 * The walk ends at the repository's top (.git), at "/", and at a
	 * directory another user owns: outside a repository, /tmp/.dslc-lint
	 * or /home/.dslc-lint written by someone else must not decide what
	 * fails (git stops at such a directory too: safe.directory). */
	for (const char *up = "";; up = arena_printf(a, "%s../", up)) {
		if (stat(cwd, &st) != 0 || !trusted_owner(&st, owner))
			return NULL;
		if (entry_stat(cwd, LINT_CONFIG_NAME, &st)) {
			const char *path = arena_printf(a, "%s%s", up, LINT_CONFIG_NAME);
			if (trusted_owner(&st, owner))
				return path;
			*untrusted = path;
			return NULL;
		}
		char *slash = strrchr(cwd, '/');
		if (entry_stat(cwd, ".git", &st) || !slash || strcmp(cwd, "/") == 0)
			return NULL;
		slash[slash == cwd] = '\0'; /* "/a/b" -> "/a", "/a" -> "/" */
	}
}

bool lint_config_is_name(const char *path)
{
	const char *base = strrchr(path, '/');
	return strcmp(base ? base + 1 : path, LINT_CONFIG_NAME) == 0;
}

/* ---- the statements --------------------------------------------------------- */

static bool word_or_string(const ast_value *v)
{
	return v && (v->kind == AST_WORD || v->kind == AST_STRING);
}

static void read_roots(lint_config *cfg, const ast_stmt *st, const ast_value *v)
{
	if (!v) {
		diag *d = diag_report(&cfg->comp->dc, R_BAD_VALUE, st->loc, "roots needs at least one path");
		diag_help(&cfg->comp->dc, d, "write `roots \"clusters/prod/cluster.dsl\"`");
		return;
	}
	for (; v; v = v->next) {
		if (cfg->nmentions++ == LINT_CONFIG_MAX_ROOTS) {
			diag *d = diag_report(&cfg->comp->dc, R_BAD_VALUE, v->loc, "more than %d roots", LINT_CONFIG_MAX_ROOTS);
			diag_help(&cfg->comp->dc, d, "lint the others from another %s (in their directory) or name them on "
				  "the command line", LINT_CONFIG_NAME);
		}
		if (cfg->nmentions > LINT_CONFIG_MAX_ROOTS)
			continue;
		if (!word_or_string(v) || !*v->text) {
			diag *d = diag_report(&cfg->comp->dc, R_BAD_VALUE, v->loc, "roots takes paths");
			diag_help(&cfg->comp->dc, d, "write each description's path, relative to this file");
			continue;
		}
		/* a root is a description: named *.dsl after links, as an include
		 * is (a parse error quotes its line, in a CI log: never /etc/shadow) */
		const char *path = v->text[0] == '/' ? v->text : arena_printf(&cfg->comp->ar, "%s%s", cfg->dir, v->text);
		char real[PATH_MAX];
		size_t n = realpath(path, real) ? strlen(real) : 0;
		if (!n || n < 4 || strcmp(real + n - 4, ".dsl") != 0) {
			diag *d = n ? diag_report(&cfg->comp->dc, R_BAD_VALUE, v->loc, "root '%s' is not a .dsl file", v->text)
				    : diag_report(&cfg->comp->dc, R_BAD_VALUE, v->loc, "cannot read root '%s': %s", v->text,
						  strerror(errno));
			diag_help(&cfg->comp->dc, d, "name a description (*.dsl), relative to this file");
			continue;
		}
		if (strmap_get(&cfg->seen, real)) { /* the same file by another spelling, or again */
			if (!cfg->nrepeated++)
				cfg->repeated_line = src_position(&cfg->comp->src, v->loc.file, v->loc.start).line;
			continue;
		}
		strmap_put(&cfg->seen, arena_strdup(&cfg->comp->ar, real), (void *)path);
		ARENA_PUSH(&cfg->comp->ar, cfg->roots, cfg->nroots, cfg->roots_cap, path);
	}
}

static void read_fail_on(lint_config *cfg, const ast_stmt *st, const ast_value *v)
{
	if (word_or_string(v) && !v->next && severity_parse(v->text, &cfg->fail_on)) {
		cfg->has_fail_on = true;
		return;
	}
	diag *d = diag_report(&cfg->comp->dc, R_BAD_VALUE, v ? v->loc : st->loc, "fail_on takes error, warning or note");
	diag_help(&cfg->comp->dc, d, "write `fail_on warning`");
}

static void read_disable(lint_config *cfg, const ast_stmt *st, const ast_value *v)
{
	diag_ctx *dc = &cfg->comp->dc;
	if (!v || v->kind != AST_WORD) {
		diag *d = diag_report(dc, R_BAD_VALUE, v ? v->loc : st->loc, "disable takes a rule id and its reason");
		diag_help(dc, d, "write `disable log-mask-debug \"tracing ticket 4711\"`");
		return;
	}
	const rule_info *r = rule_find(v->text);
	if (!r) {
		const char *sug = kw_suggest_rule(v->text);
		diag *d = diag_report(dc, R_UNKNOWN_NAME, v->loc, "no rule '%s'", v->text);
		if (sug)
			diag_help(dc, d, "write `%s`", sug);
		else
			diag_help(dc, d, "see `dslc rules`");
		return;
	}
	if (!rule_silenceable(r)) {
		diag *d = diag_report(dc, R_BAD_VALUE, v->loc, "%s cannot be disabled", r->id);
		diag_help(dc, d, "remove this line: the rule keeps what dslc writes safe, whatever the settings say");
		return;
	}
	const ast_value *why = v->next;
	if (!why || why->kind != AST_STRING || !*why->text || why->next) {
		diag *d = diag_report(dc, R_BAD_VALUE, why ? why->loc : v->loc, "disabling %s needs its reason, quoted", r->id);
		diag_help(dc, d, "write `disable %s \"why it does not apply here\"`", r->id);
		return;
	}
	cfg->disabled[r->rule] = true;
	cfg->reason[r->rule] = why->text;
}

/* baseline "path": one file, relative to this one (read when lint runs). */
static void read_baseline(lint_config *cfg, const ast_stmt *st, const ast_value *v)
{
	if (v && word_or_string(v) && !v->next && *v->text && !memchr(v->text, '\n', strlen(v->text))) {
		cfg->baseline = v->text[0] == '/' ? v->text : arena_printf(&cfg->comp->ar, "%s%s", cfg->dir, v->text);
		return;
	}
	diag *d = diag_report(&cfg->comp->dc, R_BAD_VALUE, v ? v->loc : st->loc, "baseline takes one path");
	diag_help(&cfg->comp->dc, d, "write `baseline \"dslc-baseline.json\"` (relative to this file)");
}

static void read_block(lint_config *cfg, const ast_block *b)
{
	diag_ctx *dc = &cfg->comp->dc;
	const char *names[] = {lint_kws[KW_ROOTS].name, lint_kws[KW_FAIL_ON].name, lint_kws[KW_DISABLE].name,
			       lint_kws[KW_PATH].name, lint_kws[KW_BASELINE].name};
	for (const ast_stmt *st = b->first; st; st = st->next) {
		const ast_value *kw = st->values;
		int k = KW_LINT;
		for (int i = KW_ROOTS; i <= KW_BASELINE && kw && kw->kind == AST_WORD; i++)
			if (strcmp(kw->text, lint_kws[i].name) == 0)
				k = i;
		if (k == KW_LINT || (st->block && k != KW_PATH)) {
			const char *sug = kw && kw->kind == AST_WORD ? kw_suggest(kw->text, names, 5) : NULL;
			diag *d = diag_report(dc, R_UNKNOWN_KEYWORD, kw ? kw->loc : st->loc, "%s in the lint settings",
					      k == KW_LINT ? "unknown keyword" : "a block");
			if (sug)
				diag_help(dc, d, "write `%s`", sug);
			else
				diag_help(dc, d, "the lint block takes roots, fail_on, disable, path and baseline (SPEC.md, \"One place for lint settings\")");
			continue;
		}
		if (k == KW_ROOTS)
			read_roots(cfg, st, kw->next);
		else if (k == KW_FAIL_ON)
			read_fail_on(cfg, st, kw->next);
		else if (k == KW_BASELINE)
			read_baseline(cfg, st, kw->next);
		else if (k == KW_PATH)
			lint_paths_read(cfg, st);
		else
			read_disable(cfg, st, kw->next);
	}
}

bool lint_config_read(lint_config *cfg, compilation *comp, const char *path)
{
	memset(cfg, 0, sizeof(*cfg));
	compile_init(comp);
	cfg->comp = comp;
	cfg->path = path;
	strmap_init(&cfg->seen, &comp->ar);
	const char *slash = strrchr(path, '/');
	cfg->dir = slash ? arena_strndup(&cfg->comp->ar, path, (size_t)(slash - path) + 1) : "";
	/* a parse error quotes its line: a .dslc-lint linked to a secret must
	 * not print it in a CI log (as includes are *.dsl only) */
	struct stat st;
	if (lstat(path, &st) != 0)
		return false;
	if (!S_ISREG(st.st_mode)) {
		cfg->refused = S_ISLNK(st.st_mode) ? "it is a link; settings are read from a regular file only"
						   : "it is not a regular file";
		return false;
	}
	ast_block *root = parse_program(&cfg->comp->ar, &cfg->comp->dc, &cfg->comp->src, path);
	if (!root)
		return false;
	bool seen = false;
	for (const ast_stmt *st = root->first; st; st = st->next) {
		const ast_value *kw = st->values;
		if (kw && kw->kind == AST_WORD && strcmp(kw->text, "lint") == 0 && !kw->next && st->block && !seen) {
			seen = true;
			read_block(cfg, st->block);
			continue;
		}
		diag *d = diag_report(&cfg->comp->dc, seen ? R_DUPLICATE : R_UNKNOWN_KEYWORD, kw ? kw->loc : st->loc,
				      seen ? "a second statement in %s" : "%s holds one `lint { }` block", LINT_CONFIG_NAME);
		diag_help(&cfg->comp->dc, d, "write the settings inside one `lint { ... }` block");
	}
	if (!seen && !root->first) {
		diag *d = diag_report(&cfg->comp->dc, R_UNKNOWN_KEYWORD, (src_loc){1, 0, 0}, "%s is empty", LINT_CONFIG_NAME);
		diag_help(&cfg->comp->dc, d, "write `lint { fail_on error }`, or remove the file");
	}
	diag_sort(&cfg->comp->dc);
	return true;
}
